import type { BoardPin } from '../../contract/index.ts';
import { addPinToBoard as addPinCall, fetchBoard, removePinFromBoard as removePinCall } from '../api/boards.ts';
import { boardPinsByIdAtom, boardsByIdAtom } from './atoms.ts';
import { addPinToBoard, keepBoardPins, removePinFromBoard, upsertBoard } from './boards.ts';
import { loadFirstPage, type ListSource } from './list-loader.ts';
import { LIST } from './lists.ts';
import type { Store } from './store.ts';
import { showToast, undoAction } from './toasts.ts';

// Adding pins to boards and taking them off, with the toast and its Undo (shared by the board
// page, Manage Pins, the pin page's picker and the cards' Save).

/** What "Delete Pin" and the manage page's "Delete" do (their texts are SPEC's): the pin stays. */
export const REMOVE_NOT_DELETE = 'This removes the pin from this board only; the pin itself is not deleted.';

/** A board's pins, most recently added first, page by page; page one also brings the board. */
export function boardPinsSource(store: Store, boardId: number): ListSource<BoardPin> {
  return {
    key: LIST.board(boardId),
    fetchPage: async (cursor) => {
      const { nextCursor, ...board } = await fetchBoard(boardId, { cursor });
      upsertBoard(store, board, cursor === null);
      return { items: board.pins, nextCursor };
    },
    keep: keepBoardPins,
    idOf: (pin) => pin.id,
  };
}


export async function removeFromBoard(store: Store, boardId: number, pinId: number): Promise<void> {
  const pin = store.get(boardPinsByIdAtom)[pinId];
  const boardName = store.get(boardsByIdAtom)[boardId]?.name ?? 'the board';
  try {
    await takeOffBoard(store, boardId, pinId);
    const action = pin && undoAction(store, () => saveToBoard(store, boardId, pin), `Back in ${boardName}`);
    showToast(store, `Removed from ${boardName}`, action ? { action } : {});
  } catch (error) {
    console.error(error);
    showToast(store, 'Could not remove the pin. Please try again.');
  }
  // The list is reloaded after a delete (docs/product.md §4): page one again.
  await loadFirstPage(store, boardPinsSource(store, boardId));
}

/** Adds the pin to the board (Save, or Undo of a removal); the board's first page follows. */
export async function saveToBoard(store: Store, boardId: number, pin: BoardPin): Promise<void> {
  const added = await addPinCall(boardId, pin.id);
  // "Already added" answers a message, not the pin: keep what we had.
  addPinToBoard(store, boardId, { id: added.id ?? pin.id, title: added.title ?? pin.title, image_url: added.image_url ?? pin.image_url, image: added.image ?? pin.image, visibility: added.visibility ?? pin.visibility });
  await loadFirstPage(store, boardPinsSource(store, boardId));
}

/** Takes the pin off the board without a word (Undo of a save). */
export async function takeOffBoard(store: Store, boardId: number, pinId: number): Promise<void> {
  await removePinCall(boardId, pinId);
  removePinFromBoard(store, boardId, pinId);
}
