import { type Board, boardForReader } from '../../contract/boards.ts';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';

// What a reader is shown of a change. The log keeps one copy of each change, but a board's `role`
// is the reader's own, so a board event's `board` is adapted to whoever reads it. The socket relay
// and GET /api/changes both go through here, so a socket event and its replay from the log are
// identical.

/**
 * A change's data as `readerId` may see it: the `board` a board event carries gets the reader's
 * `role`. Other events are returned as they are.
 */
export function changeForReader<T>(event: string, data: T, readerId: number): T {
  if (!event.startsWith('board:') || !data || typeof data !== 'object' || !('board' in data)) return data;
  const board = (data as { board: Board }).board;
  const adapted = boardForReader(board, readerId);
  return adapted === board ? data : { ...data, board: adapted };
}

/**
 * A change for its readers, `userIds`, grouped by what each is shown, so that one emit reaches
 * each group: a board event's owner, then its collaborators (one view each), or everyone at once.
 * Groups are never empty; no readers, no group.
 */
export function viewsForReaders<E extends ChangeEventName>(event: E, data: ChangeData<E>, userIds: readonly number[]): Array<{ data: ChangeData<E>; readerIds: number[] }> {
  const ownerId = 'board' in data ? (data.board as Board).user_id : undefined;
  if (ownerId === undefined) return userIds.length ? [{ data, readerIds: [...userIds] }] : [];
  const owner = userIds.filter((id) => id === ownerId);
  const collaborators = userIds.filter((id) => id !== ownerId);
  return [owner, collaborators].filter((readerIds) => readerIds.length > 0).map((readerIds) => ({ data: changeForReader(event, data, readerIds[0] as number), readerIds }));
}
