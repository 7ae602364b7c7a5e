// What the toast (in the page) and the popup say after a save.
import { savedAlreadyWords } from '../../contract/duplicate-rules.ts';
import type { SaveOutcome } from './save.ts';
import type { BoardRef } from './settings.ts';

export function boardLabel(board: BoardRef | null): string {
  return board ? board.name : 'your pins';
}

export function outcomeText(outcome: SaveOutcome, board: BoardRef | null): string {
  const saved = outcome.saved.length;
  const seen = outcome.seen.length;
  const total = saved + outcome.failed.length + seen;
  const where = boardLabel(board);
  // Saved already (docs/duplicates.md): the warning beside it offers Save anyway.
  const [first] = outcome.seen;
  if (saved === 0 && outcome.failed.length === 0 && first) return seen === 1 ? savedAlreadyWords(first.duplicate) : `You saved these ${seen} pictures already.`;
  if (saved === 0) return `Not saved: ${outcome.failed[0]?.message ?? 'nothing to save.'}`;
  if (seen > 0) return `Saved ${saved} of ${total} pins to ${where}; ${seen} you saved already.`;
  if (saved < total) return `Saved ${saved} of ${total} pins to ${where}; ${total - saved} could not be saved.`;
  return saved === 1 ? `Saved to ${where}` : `Saved ${saved} pins to ${where}`;
}

export function undoneText(count: number): string {
  return count === 1 ? 'Removed from Pinboard' : `Removed ${count} pins from Pinboard`;
}
