// Deletes that can be undone for a few seconds (#12). Deleting a pin or a board hides it at once
// (./hidden.ts) and shows a toast with Undo; the DELETE is sent only when the toast goes (timed
// out, dismissed or pushed out), before a logout, or — with fetch keepalive — when the page is
// closed. Undo just shows it again: nothing reached the server. Deferring in the client, rather
// than a soft delete on the server, keeps every query, event and the change log as they are; the
// cost is that other viewers see the pin until the delete is sent, and a tab that crashes in those
// seconds never sends it (the pin stays: nothing is lost).
import { deleteBoard } from '../api/boards.ts';
import { isApiError } from '../api/client.ts';
import { deletePin } from '../api/pins.ts';
import { removeBoard } from './boards.ts';
import { hiddenBoardIdsAtom, hiddenPinIdsAtom, setHidden } from './hidden.ts';
import { removePin } from './pins.ts';
import type { Store } from './store.ts';
import { showToast, takeToast } from './toasts.ts';

/** How long Undo is offered. */
export const UNDO_DELETE_MS = 5000;

type Kind = 'pin' | 'board';

interface Pending {
  kind: Kind;
  id: number;
  toastId: number;
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
  pending.set(key, { kind, id, toastId });
}

async function send(store: Store, key: string, keepalive: boolean): Promise<void> {
  const pending = pendingOf(store);
  const item = pending.get(key);
  if (!item) return;
  pending.delete(key);
  takeToast(store, item.toastId);
  try {
    if (item.kind === 'pin') await deletePin(item.id, { keepalive });
    else await deleteBoard(item.id, { keepalive });
  } catch (error) {
    // Already gone (deleted elsewhere meanwhile) is what was asked for.
    if (!(isApiError(error) && error.status === 404)) {
      console.error(error); // docs/product.md §8: delete failures are only logged; the item shows again
      hide(store, item.kind, item.id, false);
      return;
    }
  }
  if (item.kind === 'pin') removePin(store, item.id);
  else removeBoard(store, item.id);
  hide(store, item.kind, item.id, false);
}

/** Sends every deferred delete now (before a logout; with keepalive when the page is closing). */
export async function sendDeferredDeletes(store: Store, keepalive = false): Promise<void> {
  await Promise.all([...pendingOf(store).keys()].map((key) => send(store, key, keepalive)));
}
