import type { Board, BoardMember } from '../../contract/index.ts';
import { boardMembersAtom, boardRecordsAtom, boardsLostAtom } from './atoms.ts';
import { addBoard, removeBoard, upsertBoard } from './boards.ts';
import { without } from './byId.ts';
import { LIMITS } from '../../contract/limits.ts';
import { LIST, updateList, withoutId } from './lists.ts';
import type { Store } from './store.ts';

// A board's members on the client (docs/board-sharing.md): the full list its members dialog loaded, and the
// avatars summary and count every board carries. Live member events keep both current; each
// helper is idempotent (a member already there is not added twice, one already gone not removed).

export function setBoardMembers(store: Store, boardId: number, members: readonly BoardMember[]): void {
  store.set(boardMembersAtom, (prev) => ({ ...prev, [boardId]: [...members] }));
}

/**
 * A member joined a board. `board` (as of the change, with this reader's role) replaces the stored
 * one, so the avatars and count follow; when the new member is this tab's user, the board joins
 * their boards list.
 */
export function addBoardMember(store: Store, boardId: number, member: BoardMember, board: Board, myId: number | undefined): void {
  if (member.id === myId) {
    store.set(boardsLostAtom, (prev) => {
      if (!prev.has(boardId)) return prev;
      const next = new Set(prev);
      next.delete(boardId);
      return next;
    });
    addBoard(store, board, member.id);
  } else if (store.get(boardRecordsAtom)[boardId]) {
    upsertBoard(store, board);
  }
  store.set(boardMembersAtom, (prev) => {
    const list = prev[boardId];
    if (!list || list.some((m) => m.id === member.id)) return prev;
    return { ...prev, [boardId]: [...list, member] };
  });
}

/**
 * The owner's own invitation answered: the member joins the list, the avatars and the count,
 * unless the live event (which may come first) already brought them.
 */
export function addMemberLocally(store: Store, boardId: number, member: BoardMember): void {
  if (store.get(boardMembersAtom)[boardId]?.some((m) => m.id === member.id)) return;
  store.set(boardMembersAtom, (prev) => ({ ...prev, [boardId]: [...(prev[boardId] ?? []), member] }));
  const board = store.get(boardRecordsAtom)[boardId];
  if (!board || board.members.some((m) => m.id === member.id)) return;
  const members = board.members.length < LIMITS.boardMemberAvatars ? [...board.members, { id: member.id, username: member.username }] : board.members;
  store.set(boardRecordsAtom, (prev) => ({ ...prev, [boardId]: { ...board, members, member_count: board.member_count + 1 } }));
}

/**
 * A member left or was removed. For this tab's own user the board is gone from every screen and
 * marked lost (its open page closes with a notice); for the others it drops out of the list,
 * the avatars and the count.
 */
export function removeBoardMember(store: Store, boardId: number, userId: number, myId: number | undefined): void {
  if (userId === myId) {
    store.set(boardsLostAtom, (prev) => (prev.has(boardId) ? prev : new Set(prev).add(boardId)));
    removeBoard(store, boardId);
    updateList(store, LIST.boards(userId), (list) => withoutId(list, boardId));
    store.set(boardMembersAtom, (prev) => without(prev, boardId));
    return;
  }
  const list = store.get(boardMembersAtom)[boardId];
  const knownInList = list?.some((m) => m.id === userId) ?? false;
  if (list && knownInList) store.set(boardMembersAtom, (prev) => ({ ...prev, [boardId]: list.filter((m) => m.id !== userId) }));
  const board = store.get(boardRecordsAtom)[boardId];
  const inSummary = board?.members.some((m) => m.id === userId) ?? false;
  if (board && (inSummary || knownInList)) {
    store.set(boardRecordsAtom, (prev) => ({
      ...prev,
      [boardId]: { ...board, members: board.members.filter((m) => m.id !== userId), member_count: Math.max(1, board.member_count - 1) },
    }));
  }
}

/** Is this board one the signed-in user was removed from (while this tab was open)? */
export function isBoardLost(store: Store, boardId: number): boolean {
  return store.get(boardsLostAtom).has(boardId);
}
