import { atom } from 'jotai';
import type { Store } from './store.ts';

/** A short note after an action that changed data, with an optional way back (Undo). */
export interface Toast {
  id: number;
  message: string;
  action?: { label: string; run: () => Promise<void> | void };
  /** How long it stays (the Toaster's default when absent). */
  durationMs?: number;
}

/** The toasts on screen, oldest first (the <Toaster/> in the layout shows them). */
export const toastsAtom = atom<Toast[]>([]);

/** At most this many at once: an older one makes room (a burst of actions must not fill the screen). */
const MAX_TOASTS = 3;
let nextId = 1;

export function showToast(store: Store, message: string, options: Pick<Toast, 'action' | 'durationMs'> = {}): number {
  const id = nextId++;
  store.set(toastsAtom, (toasts) => [...toasts, { id, message, ...options }].slice(-MAX_TOASTS));
  return id;
}

export function dismissToast(store: Store, id: number): void {
  store.set(toastsAtom, (toasts) => toasts.filter((toast) => toast.id !== id));
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
