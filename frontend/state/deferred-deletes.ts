// Deletes that can be undone for a few seconds (#12). Deleting a pin or a board hides it at once
// (./hidden.ts) and shows a toast with Undo; the DELETE is sent only when the toast goes (timed
// out, dismissed or pushed out), before a logout, or — with fetch keepalive — when the page is
// closed. Undo just shows it again: nothing reached the server. Deferring in the client, rather
// than a soft delete on the server, keeps every query, event and the change log as they are; the
// cost is that other viewers see the pin until the delete is sent, and a tab that crashes in those
// seconds never sends it (the pin stays: nothing is lost). Once the toast goes the delete enters the
// outbox (docs/outbox.md): with no answer it stays there, the item still hidden, and is sent later
// (a new tab hides it again); refused, the item comes back and a toast says so, with Retry.
import { MSG } from '../../contract/messages.ts';
import { type Refusal, refusalWords } from '../outbox/entry.ts';
import { type OutboxHandlers, queueOnExit, queueWrite } from '../outbox/outbox.ts';
import { sessionUserAtom } from './atoms.ts';
import { removeBoard } from './boards.ts';
import { hiddenBoardIdsAtom, hiddenPinIdsAtom, setHidden } from './hidden.ts';
import { removePin } from './pins.ts';
import type { Store } from './store.ts';
import { retryAction, showToast, takeToast } from './toasts.ts';

/** How long Undo is offered. */
export const UNDO_DELETE_MS = 5000;

type Kind = 'pin' | 'board';

interface Pending {
  kind: Kind;
  id: number;
  toastId: number;
  /** The toast's words ("Pin deleted"), said again if the delete has to wait. */
  message: string;
}

const pendingByStore = new WeakMap<Store, Map<string, Pending>>();

function pendingOf(store: Store): Map<string, Pending> {
  let pending = pendingByStore.get(store);
  if (!pending) pendingByStore.set(store, (pending = new Map()));
  return pending;
}

const hiddenAtomOf = (kind: Kind) => (kind === 'pin' ? hiddenPinIdsAtom : hiddenBoardIdsAtom);

function hide(store: Store, kind: Kind, id: number, hidden: boolean): void {
  store.set(hiddenAtomOf(kind), (set) => setHidden(set, id, hidden));
}

/** Hides the pin or board now and deletes it when the toast (with Undo) goes. */
export function deleteLater(store: Store, kind: Kind, id: number, message: string): void {
  const key = `${kind}:${id}`;
  const pending = pendingOf(store);
  if (pending.has(key)) return;
  hide(store, kind, id, true);
  const toastId = showToast(store, message, {
    durationMs: UNDO_DELETE_MS,
    onExpire: () => void send(store, key, false),
    action: {
      label: 'Undo',
      run: () => {
        if (!pending.delete(key)) return;
        hide(store, kind, id, false);
        showToast(store, kind === 'pin' ? 'Pin restored' : 'Board restored');
      },
    },
  });
  pending.set(key, { kind, id, toastId, message });
}

function subjectOf(kind: Kind, id: number) {
  return kind === 'pin' ? ({ kind: 'pin-delete', pinId: id } as const) : ({ kind: 'board-delete', boardId: id } as const);
}

async function send(store: Store, key: string, keepalive: boolean): Promise<void> {
  const pending = pendingOf(store);
  const item = pending.get(key);
  const userId = store.get(sessionUserAtom)?.id;
  if (!item || userId === undefined) return;
  pending.delete(key);
  takeToast(store, item.toastId);
  const entry = { userId, label: item.message, subject: subjectOf(item.kind, item.id) };
  // The page is closing: stored for the next start, and sent with keepalive under the same key.
  if (keepalive) return queueOnExit(store, entry);
  const outcome = await queueWrite(store, entry);
  if (outcome.status === 'waiting') showToast(store, item.message, { waiting: true });
}

function deleted(store: Store, kind: Kind, id: number): void {
  if (kind === 'pin') removePin(store, id);
  else removeBoard(store, id);
  hide(store, kind, id, false);
}

function refused(store: Store, kind: Kind, id: number, label: string, refusal: Refusal): void {
  // Already gone (deleted elsewhere meanwhile) is what was asked for.
  if (refusal.reason === 'refused' && refusal.error.status === 404) return deleted(store, kind, id);
  hide(store, kind, id, false);
  showToast(store, refusalWords(kind === 'pin' ? MSG.pinDeleteRefused : MSG.boardDeleteRefused, refusal), {
    action: retryAction(async () => {
      const userId = store.get(sessionUserAtom)?.id;
      if (userId === undefined) return;
      hide(store, kind, id, true);
      const outcome = await queueWrite(store, { userId, label, subject: subjectOf(kind, id) });
      if (outcome.status === 'waiting') showToast(store, label, { waiting: true });
    }),
  });
}

/** What the outbox does for deletes on screen (Layout hands these to startOutbox). */
export const deleteOutbox: Pick<OutboxHandlers, 'pin-delete' | 'board-delete'> = {
  'pin-delete': {
    show: (store, { subject }) => hide(store, 'pin', subject.pinId, true),
    sent: (store, { subject }) => deleted(store, 'pin', subject.pinId),
    refused: (store, { subject, label }, refusal) => refused(store, 'pin', subject.pinId, label, refusal),
  },
  'board-delete': {
    show: (store, { subject }) => hide(store, 'board', subject.boardId, true),
    sent: (store, { subject }) => deleted(store, 'board', subject.boardId),
    refused: (store, { subject, label }, refusal) => refused(store, 'board', subject.boardId, label, refusal),
  },
};

/** Sends every deferred delete now (before a logout; with keepalive when the page is closing). */
export async function sendDeferredDeletes(store: Store, keepalive = false): Promise<void> {
  await Promise.all([...pendingOf(store).keys()].map((key) => send(store, key, keepalive)));
}
