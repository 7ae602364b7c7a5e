import type { Board, BoardPin } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { boardPinsByIdAtom, boardsByIdAtom } from './atoms.ts';
import { without } from './byId.ts';
import { getList, LIST, updateList, withFirst, withoutId } from './lists.ts';
import type { Store } from './store.ts';

function summary(pin: BoardPin): BoardPin {
  return { id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image };
}

/** A board as the boards list keeps it: its `pins` are its covers (most recently added first). */
function withCovers(board: Board): Board {
  return board.pins.length > LIMITS.boardCovers ? { ...board, pins: board.pins.slice(0, LIMITS.boardCovers) } : board;
}

/**
 * Stores a board. From the boards list and from events its `pins` are the covers; from page one of
 * GET /api/boards/{id} they are the newest added, so their start is the covers too. A later page
 * of a board (`coversToo: false`) leaves the covers as they are.
 */
export function upsertBoard(store: Store, board: Board, coversToo = true): void {
  store.set(boardsByIdAtom, (prev) => {
    const current = prev[board.id];
    const next = coversToo || !current ? withCovers(board) : { ...withCovers(board), pins: current.pins };
    return { ...prev, [board.id]: next };
  });
}

export function upsertBoards(store: Store, boards: readonly Board[]): void {
  store.set(boardsByIdAtom, (prev) => {
    const next = { ...prev };
    for (const board of boards) next[board.id] = withCovers(board);
    return next;
  });
}

/** The pins of a board's page, kept by pin id for the board's list. */
export function keepBoardPins(store: Store, pins: readonly BoardPin[]): void {
  if (!pins.length) return;
  store.set(boardPinsByIdAtom, (prev) => {
    const next = { ...prev };
    for (const pin of pins) next[pin.id] = summary(pin);
    return next;
  });
}

/** A board the user just created (event or REST answer): stored, and first in the boards list. */
export function addBoard(store: Store, board: Board, userId: number): void {
  upsertBoard(store, board);
  updateList(store, LIST.boards(userId), (list) => withFirst(list, board.id));
}

export function removeBoard(store: Store, boardId: number): void {
  store.set(boardsByIdAtom, (prev) => without(prev, boardId));
}

/** Is the pin known to be in the board (among its covers or its loaded pages)? */
function knownIn(store: Store, board: Board, pinId: number): boolean {
  return board.pins.some((p) => p.id === pinId) || getList(store, LIST.board(board.id)).ids.includes(pinId);
}

/**
 * A pin was added to a board: it becomes the first cover and the first of the board's loaded
 * pages, and the count grows — to `pinCount`, the server's count as of that change, when the live
 * event carries it. Idempotent: a pin already known in the board changes nothing.
 */
export function addPinToBoard(store: Store, boardId: number, pin: BoardPin, pinCount?: number): void {
  const board = store.get(boardsByIdAtom)[boardId];
  if (board && !knownIn(store, board, pin.id)) {
    const pins = [summary(pin), ...board.pins].slice(0, LIMITS.boardCovers);
    store.set(boardsByIdAtom, (prev) => ({ ...prev, [boardId]: { ...board, pin_count: pinCount ?? board.pin_count + 1, pins } }));
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
  const board = store.get(boardsByIdAtom)[boardId];
  if (board && (knownIn(store, board, pinId) || pinCount !== undefined)) {
    const pins = board.pins.filter((p) => p.id !== pinId);
    store.set(boardsByIdAtom, (prev) => ({ ...prev, [boardId]: { ...board, pin_count: pinCount ?? Math.max(0, board.pin_count - 1), pins } }));
  }
  updateList(store, LIST.board(boardId), (list) => withoutId(list, pinId));
}

/** A pin was deleted: it leaves every board that is known to hold it. */
export function dropPinFromBoards(store: Store, pinId: number): void {
  for (const board of Object.values(store.get(boardsByIdAtom))) removePinFromBoard(store, board.id, pinId);
  store.set(boardPinsByIdAtom, (prev) => without(prev, pinId));
}

/** "7" → "07" (SPEC §9). */
export function formatPinCount(count: number): string {
  return String(count).padStart(2, '0');
}
