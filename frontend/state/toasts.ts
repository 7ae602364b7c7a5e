import { atom } from 'jotai';
import { MSG } from '../../contract/messages.ts';
import type { Store } from './store.ts';

// Toasts: a short note after an action that changed data, with an optional way back (Undo). One
// shows at a time (several stacked covered a phone's lower half): a new toast takes the place of
// the one showing. A toast with an action that is replaced waits underneath with its timer still
// running and shows again if it has time left when the newer one goes; a plain one is simply gone.
// Plain toasts are also dropped when the reader goes to another page (followNavigation); toasts
// with an action stay, since their action (or their onExpire, such as a deferred delete) still
// matters. Ctrl+Z / ⌘Z takes the newest action (components/Toaster.tsx).

export interface Toast {
  id: number;
  message: string;
  action?: { label: string; run: () => Promise<void> | void };
  /** A link to where the news is (a board one was added to); a plain toast otherwise. */
  link?: { label: string; to: string };
  /** How long it stays (TOAST_MS when absent). */
  durationMs?: number;
  /**
   * Runs when the toast goes without its action being taken: it timed out, was dismissed, or was
   * pushed out by newer ones (a deferred delete is sent then).
   */
  onExpire?: () => void;
  /** What it tells of is not on the server yet: it waits in the outbox (docs/outbox.md). */
  waiting?: boolean;
}

/** How long a toast stays; the timer pauses while the pointer or the focus is on it. */
export const TOAST_MS = 6000;

/** The toasts alive, oldest first: the last one shows, the others (with actions) wait under it. */
export const toastsAtom = atom<Toast[]>([]);

/** At most this many toasts with an action wait under the one showing; older ones make room. */
const MAX_WAITING = 3;
let nextId = 1;

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  /** Time left when paused, else the deadline (ms since the epoch). */
  left: number;
  deadline: number;
}
const timers = new Map<number, Timer>();

function startTimer(store: Store, id: number, ms: number): void {
  const handle = setTimeout(() => dismissToast(store, id), ms);
  timers.set(id, { handle, left: ms, deadline: Date.now() + ms });
}

function stopTimer(id: number): void {
  const timer = timers.get(id);
  if (timer?.handle) clearTimeout(timer.handle);
  timers.delete(id);
}

/** Stores whose next toast tells of a write that went to the outbox (see markNextToastWaiting). */
const nextToastWaits = new WeakSet<Store>();

/**
 * The toast a screen shows right after the write it awaited (e.g. "Saved to Trips") tells of a
 * write that is waiting in the outbox: marked here, just before that write's promise resolves, and
 * taken by the next showToast in the same turn of the event loop — the screen's own toast, which
 * then says "Waiting to send". The mark lapses at the next turn, so it never reaches a later toast.
 */
export function markNextToastWaiting(store: Store): void {
  nextToastWaits.add(store);
  setTimeout(() => nextToastWaits.delete(store), 0);
}

export function showToast(store: Store, message: string, options: Pick<Toast, 'action' | 'link' | 'durationMs' | 'onExpire' | 'waiting'> = {}): number {
  const id = nextId++;
  const waits = options.waiting ?? nextToastWaits.has(store);
  nextToastWaits.delete(store);
  const toast: Toast = { id, message, ...options, ...(waits ? { waiting: true } : {}) };
  const current = store.get(toastsAtom);
  // The one showing and any others without an action are gone; with an action they wait.
  const waiting = current.filter((each) => each.action);
  const gone = [...current.filter((each) => !each.action), ...waiting.slice(0, Math.max(0, waiting.length - MAX_WAITING))];
  store.set(toastsAtom, [...waiting.slice(-MAX_WAITING), toast]);
  for (const each of gone) {
    stopTimer(each.id);
    each.onExpire?.();
  }
  startTimer(store, id, options.durationMs ?? TOAST_MS);
  return id;
}

/** Removes a toast without its action (timed out or dismissed): its onExpire runs. */
export function dismissToast(store: Store, id: number): void {
  takeToast(store, id)?.onExpire?.();
}

/** Removes a toast and hands it over, onExpire not run (its action is being taken instead). */
export function takeToast(store: Store, id: number): Toast | undefined {
  stopTimer(id);
  const toast = store.get(toastsAtom).find((each) => each.id === id);
  if (toast) store.set(toastsAtom, (toasts) => toasts.filter((each) => each.id !== id));
  return toast;
}

/** The pointer or the focus is on the toast: its time stands still. */
export function pauseToast(id: number): void {
  const timer = timers.get(id);
  if (!timer?.handle) return;
  clearTimeout(timer.handle);
  timers.set(id, { handle: null, left: Math.max(0, timer.deadline - Date.now()), deadline: timer.deadline });
}

export function resumeToast(store: Store, id: number): void {
  const timer = timers.get(id);
  if (timer && !timer.handle) startTimer(store, id, timer.left);
}

/** Drops the toasts without an action (the reader went to another page). */
export function dropPlainToasts(store: Store): void {
  const current = store.get(toastsAtom);
  if (!current.some((each) => !each.action)) return;
  for (const each of current) if (!each.action) stopTimer(each.id);
  store.set(
    toastsAtom,
    current.filter((each) => each.action),
  );
}

/**
 * Follows a router's navigations (main.tsx): a new location drops the plain toasts. A router tells
 * its subscribers synchronously, before `navigate()` resolves, so a toast shown right after a
 * navigation (the page it went to says what was done) is not dropped with the old page's.
 */
export function followNavigation(store: Store, router: { subscribe: (listener: (state: { location: { key: string } }) => void) => () => void; state: { location: { key: string } } }): () => void {
  let key = router.state.location.key;
  return router.subscribe((state) => {
    if (state.location.key === key) return;
    key = state.location.key;
    dropPlainToasts(store);
  });
}

/** Retry for a toast that says a write was refused: `retry` queues it again. */
export function retryAction(retry: () => Promise<unknown> | void): Toast['action'] {
  return {
    label: MSG.outboxRetry,
    run: async () => {
      await retry();
    },
  };
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
