// What failed while the connection was down is tried again when it returns (docs/paging.md,
// docs/images.md): on the browser's `online` event, and when the live socket connects again after
// a drop (liveStatusAtom going from `paused` back to `connected`: a network that came back without
// the browser noticing, or a server that was away). Each waiter is tried once per return, in one
// wave — loads at once, images spread a little so a grid of failed pictures does not ask for all
// of them in the same instant — and forgotten; what fails again waits for the next return. So
// nothing retries in a loop: a picture that is really missing is asked for once more each time the
// connection comes back, and keeps its "no picture" state in between.
import { liveStatusAtom } from './atoms.ts';
import type { Store } from './store.ts';

/** `load`: a list's page or a screen's data, tried at once; `image`: tried STAGGER_MS after the previous. */
export type WaiterKind = 'load' | 'image';

/** The gap between two images' retries in a wave. */
export const STAGGER_MS = 25;
/** `online` and the socket's reconnect usually come close together: one wave for both. */
export const SAME_RETURN_MS = 1_000;

interface Waiter {
  kind: WaiterKind;
  retry: () => void;
}

interface Waiting {
  waiters: Map<unknown, Waiter>;
  stop: () => void;
}

const perStore = new WeakMap<Store, Waiting>();
/** When each store's last wave started (kept while nothing waits: a wave's own retries re-register). */
const lastWaves = new WeakMap<Store, number>();

/** The browser says it has no network (false when it cannot tell). */
export function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function wave(store: Store, waiting: Waiting): void {
  const now = Date.now();
  if (now - (lastWaves.get(store) ?? -Infinity) < SAME_RETURN_MS) return;
  lastWaves.set(store, now);
  let images = 0;
  for (const [token, waiter] of [...waiting.waiters]) {
    const run = () => {
      // Cancelled, or replaced by a newer failure that waits for the next return.
      if (waiting.waiters.get(token) !== waiter) return;
      forget(store, waiting, token);
      waiter.retry();
    };
    if (waiter.kind === 'load') run();
    else setTimeout(run, STAGGER_MS * images++);
  }
}

function forget(store: Store, waiting: Waiting, token: unknown): void {
  waiting.waiters.delete(token);
  if (waiting.waiters.size > 0 || perStore.get(store) !== waiting) return;
  perStore.delete(store);
  waiting.stop();
}

function follow(store: Store): Waiting {
  const found = perStore.get(store);
  if (found) return found;
  const waiting: Waiting = { waiters: new Map(), stop: () => undefined };
  const onOnline = () => wave(store, waiting);
  let status = store.get(liveStatusAtom);
  const unsubscribe = store.sub(liveStatusAtom, () => {
    const next = store.get(liveStatusAtom);
    if (status === 'paused' && next === 'connected') wave(store, waiting);
    status = next;
  });
  window.addEventListener('online', onOnline);
  waiting.stop = () => {
    window.removeEventListener('online', onOnline);
    unsubscribe();
  };
  perStore.set(store, waiting);
  return waiting;
}

/**
 * Calls `retry` once, at the next return of the connection. `token` names what waits: a second
 * call with the same token replaces the first. Returns a function that cancels the wait.
 */
export function retryWhenBack(store: Store, token: unknown, retry: () => void, kind: WaiterKind = 'load'): () => void {
  const waiting = follow(store);
  const waiter: Waiter = { kind, retry };
  waiting.waiters.set(token, waiter);
  return () => {
    const current = perStore.get(store);
    if (current?.waiters.get(token) === waiter) forget(store, current, token);
  };
}
