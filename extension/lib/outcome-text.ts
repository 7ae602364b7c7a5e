// What the toast (in the page) and the popup say after a save.
import type { SaveOutcome } from './save.ts';
import type { BoardRef } from './settings.ts';

export function boardLabel(board: BoardRef | null): string {
  return board ? board.name : 'your pins';
}

export function outcomeText(outcome: SaveOutcome, board: BoardRef | null): string {
  const saved = outcome.saved.length;
  const total = saved + outcome.failed.length;
  const where = boardLabel(board);
  if (saved === 0) return `Not saved: ${outcome.failed[0]?.message ?? 'nothing to save.'}`;
  if (saved < total) return `Saved ${saved} of ${total} pins to ${where}; ${total - saved} could not be saved.`;
  return saved === 1 ? `Saved to ${where}` : `Saved ${saved} pins to ${where}`;
}

export function undoneText(count: number): string {
  return count === 1 ? 'Removed from Pinboard' : `Removed ${count} pins from Pinboard`;
}
