import { atom } from 'jotai';
import type { Store } from './store.ts';

/** A short note after an action that changed data, with an optional way back (Undo). */
export interface Toast {
  id: number;
  message: string;
  action?: { label: string; run: () => Promise<void> | void };
  /** How long it stays (the Toaster's default when absent). */
  durationMs?: number;
  /**
   * Runs when the toast goes without its action being taken: it timed out, was dismissed, or was
   * pushed out by newer ones (a deferred delete is sent then).
   */
  onExpire?: () => void;
}

/** The toasts on screen, oldest first (the <Toaster/> in the layout shows them). */
export const toastsAtom = atom<Toast[]>([]);

/** At most this many at once: an older one makes room (a burst of actions must not fill the screen). */
const MAX_TOASTS = 3;
let nextId = 1;

export function showToast(store: Store, message: string, options: Pick<Toast, 'action' | 'durationMs' | 'onExpire'> = {}): number {
  const id = nextId++;
  const toasts = [...store.get(toastsAtom), { id, message, ...options }];
  const pushedOut = toasts.slice(0, -MAX_TOASTS);
  store.set(toastsAtom, toasts.slice(-MAX_TOASTS));
  for (const toast of pushedOut) toast.onExpire?.();
  return id;
}

/** Removes a toast without its action (timed out or dismissed): its onExpire runs. */
export function dismissToast(store: Store, id: number): void {
  takeToast(store, id)?.onExpire?.();
}

/** Removes a toast and hands it over, onExpire not run (its action is being taken instead). */
export function takeToast(store: Store, id: number): Toast | undefined {
  const toast = store.get(toastsAtom).find((each) => each.id === id);
  if (toast) store.set(toastsAtom, (toasts) => toasts.filter((each) => each.id !== id));
  return toast;
}

/** Undo for a toast: runs `undo`, then says it worked or that it could not. */
export function undoAction(store: Store, undo: () => Promise<void>, done = 'Undone'): Toast['action'] {
  return {
    label: 'Undo',
    run: async () => {
      try {
        await undo();
        showToast(store, done);
      } catch (error) {
        console.error(error);
        showToast(store, 'Could not undo. Please try again.');
      }
    },
  };
}
