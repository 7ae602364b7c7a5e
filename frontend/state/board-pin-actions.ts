import type { BoardPin } from '../../contract/index.ts';
import { MSG } from '../../contract/messages.ts';
import { fetchBoard } from '../api/boards.ts';
import { entriesOfKind, myOutboxEntriesAtom } from '../outbox/atoms.ts';
import { type OutboxEntry, type OutboxSubject, refusalWords } from '../outbox/entry.ts';
import { cancelWrite, type OutboxHandlers, queueWrite } from '../outbox/outbox.ts';
import { boardPinsByIdAtom, boardsByIdAtom, sessionUserAtom } from './atoms.ts';
import { addPinToBoard, keepBoardPins, removePinFromBoard, upsertBoard } from './boards.ts';
import { loadFirstPage, type ListSource } from './list-loader.ts';
import { LIST } from './lists.ts';
import type { Store } from './store.ts';
import { markNextToastWaiting, retryAction, showToast, undoAction } from './toasts.ts';

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
  const boardName = boardNameOf(store, boardId);
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

// Saves and removals go through the outbox (docs/outbox.md): shown at once, sent in order with
// their own Idempotency-Key, kept while there is no answer, undone with words if refused.

type SaveEntry = OutboxEntry<Extract<OutboxSubject, { kind: 'board-save' }>>;
type RemoveEntry = OutboxEntry<Extract<OutboxSubject, { kind: 'board-remove' }>>;

function boardNameOf(store: Store, boardId: number): string {
  return store.get(boardsByIdAtom)[boardId]?.name ?? 'the board';
}

/** The newest save or removal of this pin on this board still in the outbox. */
function pendingOf(store: Store, boardId: number, pinId: number): SaveEntry | RemoveEntry | undefined {
  const entries = store.get(myOutboxEntriesAtom);
  const saves: Array<SaveEntry | RemoveEntry> = [...entriesOfKind(entries, 'board-save'), ...entriesOfKind(entries, 'board-remove')];
  return saves
    .filter((entry) => entry.subject.boardId === boardId && (entry.subject.kind === 'board-save' ? entry.subject.pin.id : entry.subject.pinId) === pinId)
    .sort((a, b) => a.createdAt - b.createdAt)
    .at(-1);
}

class Refused extends Error {}

/**
 * Adds the pin to the board (Save, or Undo of a removal): shown at once, then sent. Rejects when the
 * server refuses it (the pin leaves the board again and a toast says so); when it waits, the next
 * toast the caller shows says "Waiting to send".
 */
export async function saveToBoard(store: Store, boardId: number, pin: BoardPin): Promise<void> {
  const userId = store.get(sessionUserAtom)?.id;
  if (userId === undefined) throw new Refused('signed out');
  const pending = pendingOf(store, boardId, pin.id);
  // Its removal never left: taking it back is the save.
  if (pending?.subject.kind === 'board-remove' && (await cancelWrite(store, pending.key))) return addPinToBoard(store, boardId, pin);
  addPinToBoard(store, boardId, pin);
  const outcome = await queueWrite(store, { userId, label: boardNameOf(store, boardId), subject: { kind: 'board-save', boardId, pin } });
  if (outcome.status === 'refused') throw new Refused(MSG.boardSaveRefused);
  if (outcome.status === 'waiting') markNextToastWaiting(store);
}

/** Takes the pin off the board (Undo of a save): shown at once, then sent; rejects when refused. */
export async function takeOffBoard(store: Store, boardId: number, pinId: number): Promise<void> {
  const userId = store.get(sessionUserAtom)?.id;
  if (userId === undefined) throw new Refused('signed out');
  const pending = pendingOf(store, boardId, pinId);
  if (pending?.subject.kind === 'board-save' && (await cancelWrite(store, pending.key))) return removePinFromBoard(store, boardId, pinId);
  const pin = store.get(boardPinsByIdAtom)[pinId];
  removePinFromBoard(store, boardId, pinId);
  const outcome = await queueWrite(store, { userId, label: boardNameOf(store, boardId), subject: { kind: 'board-remove', boardId, pinId, pin } });
  if (outcome.status === 'refused') throw new Refused(MSG.boardRemoveRefused);
  if (outcome.status === 'waiting') markNextToastWaiting(store);
}

/** What the outbox does for board saves and removals on screen (Layout hands these to startOutbox). */
export const boardPinOutbox: Pick<OutboxHandlers, 'board-save' | 'board-remove'> = {
  'board-save': {
    show: (store, { subject }) => addPinToBoard(store, subject.boardId, subject.pin),
    sent: (store, { subject }, answer) => {
      const added = answer as Partial<BoardPin> | undefined;
      const { pin } = subject;
      // "Already added" answers a message, not the pin: keep what we had.
      addPinToBoard(store, subject.boardId, {
        id: pin.id,
        title: added?.title ?? pin.title,
        image_url: added?.image_url ?? pin.image_url,
        image: added?.image ?? pin.image,
        visibility: added?.visibility ?? pin.visibility,
      });
      void loadFirstPage(store, boardPinsSource(store, subject.boardId));
    },
    refused: (store, { subject }, refusal) => {
      removePinFromBoard(store, subject.boardId, subject.pin.id);
      showToast(store, refusalWords(MSG.boardSaveRefused, refusal), {
        action: retryAction(() => saveToBoard(store, subject.boardId, subject.pin).catch(() => undefined)),
      });
    },
  },
  'board-remove': {
    show: (store, { subject }) => removePinFromBoard(store, subject.boardId, subject.pinId),
    sent: (store, { subject }) => removePinFromBoard(store, subject.boardId, subject.pinId),
    refused: (store, { subject }, refusal) => {
      // Not on the board any more: what was asked for.
      if (refusal.reason === 'refused' && refusal.error.status === 404) return;
      if (subject.pin) addPinToBoard(store, subject.boardId, subject.pin);
      void loadFirstPage(store, boardPinsSource(store, subject.boardId));
      showToast(store, refusalWords(MSG.boardRemoveRefused, refusal), { action: retryAction(() => takeOffBoard(store, subject.boardId, subject.pinId).catch(() => undefined)) });
    },
  },
};
