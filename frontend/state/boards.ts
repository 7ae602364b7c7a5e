import type { Board, BoardPin } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { boardPinIdsAtom, boardRecordsAtom } from './atoms.ts';
import { without } from './byId.ts';
import { getList, LIST, updateList, withFirst, withoutId } from './lists.ts';
import type { BoardRecord } from './pin-views.ts';
import { recordPinFacts } from './pin-facts.ts';
import type { Store } from './store.ts';

// Boards keep their covers, and boards' pages their pins, by pin id: what a pin shows is the pin's
// own (./pins.ts), and the screens read boards joined with it (./pin-views.ts).

/**
 * A board as the store keeps it: its covers' ids (most recently added first), their facts kept by
 * their pins. `covers` stands in for the board's own pins (a later page of a board keeps the covers).
 */
function toRecord(store: Store, { pins, ...board }: Board, covers: readonly BoardPin[] = pins.slice(0, LIMITS.boardCovers)): BoardRecord {
  recordPinFacts(store, covers);
  return { ...board, coverIds: covers.map((pin) => pin.id) };
}

/**
 * Stores a board. From the boards list and from events its `pins` are the covers; from page one of
 * GET /api/boards/{id} they are the newest added, so their start is the covers too. A later page
 * of a board (`coversToo: false`) leaves the covers as they are.
 */
export function upsertBoard(store: Store, board: Board, coversToo = true): void {
  const current = store.get(boardRecordsAtom)[board.id];
  const record = coversToo || !current ? toRecord(store, board) : { ...toRecord(store, board, []), coverIds: current.coverIds };
  store.set(boardRecordsAtom, (prev) => ({ ...prev, [board.id]: record }));
}

export function upsertBoards(store: Store, boards: readonly Board[]): void {
  const records = boards.map((board) => toRecord(store, board));
  store.set(boardRecordsAtom, (prev) => {
    const next = { ...prev };
    for (const record of records) next[record.id] = record;
    return next;
  });
}

/** The pins of a board's page, kept by pin id for the board's list. */
export function keepBoardPins(store: Store, pins: readonly BoardPin[]): void {
  if (!pins.length) return;
  recordPinFacts(store, pins);
  store.set(boardPinIdsAtom, (prev) => (pins.every((pin) => prev.has(pin.id)) ? prev : new Set([...prev, ...pins.map((pin) => pin.id)])));
}

/** A board the user just created (event or REST answer): stored, and first in the boards list. */
export function addBoard(store: Store, board: Board, userId: number): void {
  upsertBoard(store, board);
  updateList(store, LIST.boards(userId), (list) => withFirst(list, board.id));
}

export function removeBoard(store: Store, boardId: number): void {
  store.set(boardRecordsAtom, (prev) => without(prev, boardId));
}

/** Is the pin known to be in the board (among its covers or its loaded pages)? */
function knownIn(store: Store, board: BoardRecord, pinId: number): boolean {
  return board.coverIds.includes(pinId) || getList(store, LIST.board(board.id)).ids.includes(pinId);
}

/**
 * A pin was added to a board: it becomes the first cover and the first of the board's loaded
 * pages, and the count grows — to `pinCount`, the server's count as of that change, when the live
 * event carries it. Idempotent: a pin already known in the board changes nothing.
 */
export function addPinToBoard(store: Store, boardId: number, pin: BoardPin, pinCount?: number): void {
  const board = store.get(boardRecordsAtom)[boardId];
  if (board && !knownIn(store, board, pin.id)) {
    recordPinFacts(store, [pin]);
    const coverIds = [pin.id, ...board.coverIds].slice(0, LIMITS.boardCovers);
    store.set(boardRecordsAtom, (prev) => ({ ...prev, [boardId]: { ...board, pin_count: pinCount ?? board.pin_count + 1, coverIds } }));
  }
  if (getList(store, LIST.board(boardId)).pages > 0) {
    keepBoardPins(store, [pin]);
    updateList(store, LIST.board(boardId), (list) => withFirst(list, pin.id));
  }
}

/**
 * A pin left a board. The count drops (to `pinCount` when the live event carries it) only when the
 * pin was known in it, or when the server's count says so, so this is idempotent.
 */
export function removePinFromBoard(store: Store, boardId: number, pinId: number, pinCount?: number): void {
  const board = store.get(boardRecordsAtom)[boardId];
  if (board && (knownIn(store, board, pinId) || pinCount !== undefined)) {
    const coverIds = board.coverIds.filter((id) => id !== pinId);
    store.set(boardRecordsAtom, (prev) => ({ ...prev, [boardId]: { ...board, pin_count: pinCount ?? Math.max(0, board.pin_count - 1), coverIds } }));
  }
  updateList(store, LIST.board(boardId), (list) => withoutId(list, pinId));
}

/** A pin was deleted: it leaves every board that is known to hold it. */
export function dropPinFromBoards(store: Store, pinId: number): void {
  for (const board of Object.values(store.get(boardRecordsAtom))) removePinFromBoard(store, board.id, pinId);
  store.set(boardPinIdsAtom, (prev) => {
    if (!prev.has(pinId)) return prev;
    const next = new Set(prev);
    next.delete(pinId);
    return next;
  });
}

/** "7" → "07" (docs/product.md §9). */
export function formatPinCount(count: number): string {
  return String(count).padStart(2, '0');
}
