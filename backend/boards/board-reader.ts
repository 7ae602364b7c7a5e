import { type Board, boardForReader } from '../../contract/boards.ts';
import type { ServerEventName } from '../../contract/events.ts';

// A board's `role` is the reader's own, so one stored copy of a board event (the change log keeps
// one per change) must be adapted to whoever reads it. The relay and GET /api/changes both go
// through here, so a socket event and its replay from the log are identical.

/** Readers of one board grouped by the `role` they see: its owner and its collaborators. */
export function readersByRole(ownerId: number, memberIds: readonly number[]): { owner: number[]; collaborators: number[] } {
  const owner = memberIds.filter((id) => id === ownerId);
  const collaborators = memberIds.filter((id) => id !== ownerId);
  return { owner, collaborators };
}

/**
 * A change's data as `readerId` may see it: the `board` a board event carries gets the reader's
 * `role`. Other events are returned as they are.
 */
export function changeForReader<T>(event: ServerEventName | string, data: T, readerId: number): T {
  if (!event.startsWith('board:') || !data || typeof data !== 'object' || !('board' in data)) return data;
  const board = (data as { board: Board }).board;
  const adapted = boardForReader(board, readerId);
  return adapted === board ? data : { ...data, board: adapted };
}
