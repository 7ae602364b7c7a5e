// The outbox (docs/outbox.md): every write the client may have to send again goes through it. It is
// stored first (./storage.ts), then sent in order, each with its own Idempotency-Key on every
// attempt, so the server applies it once. A write that gets no answer (status 0, 502–504) stays and
// is sent again when the browser says it is online, when the app starts and every SEND_EVERY_MS
// while any wait; a write the server refuses is dropped and its kind's `refused` undoes it on screen.
// Only one tab sends at a time (the Web Locks API); the others follow through a BroadcastChannel.
import { api, isApiError, isLostAnswer, newIdempotencyKey } from '../api/client.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { createStore } from 'jotai';
import { outboxEntriesAtom, outboxFreshKeysAtom, outboxUserIdAtom } from './atoms.ts';
import { type NewEntry, type OutboxEntry, type OutboxKind, type OutboxSubject, type Outcome, type Refusal, requestOf } from './entry.ts';
import { defaultStorage, type OutboxStorage } from './storage.ts';

/** At most this many writes wait; one more is refused with words (docs/outbox.md). */
export const OUTBOX_CAP = 200;
/** How often a non-empty outbox is tried again: `navigator.onLine` may say online while nothing gets through. */
export const SEND_EVERY_MS = 15_000;
const WINDOW_MS = LIMITS.idempotencyKeyHours * 3600_000;
const LOCK = 'pinboard-outbox';
const CHANNEL = 'pinboard-outbox';

/** A Jotai store (the app's, or a test's): the outbox sits under state/, so it names the type itself. */
export type Store = ReturnType<typeof createStore>;

/** What a kind of write does on screen when it is shown again, done, or refused. */
export interface KindHandler<S extends OutboxSubject> {
  /** Puts a stored entry back on screen (a new tab, a reload): the change shows as waiting. */
  show?(store: Store, entry: OutboxEntry<S>): void;
  /** The server did it (or had done it: a replay); `answer` is its JSON body. */
  sent(store: Store, entry: OutboxEntry<S>, answer: unknown): void;
  /**
   * Dropped without being done: undo it on screen and say so, with Retry. `asked` is true when the
   * screen that queued it is still waiting for this answer (a dialog may say it in place).
   */
  refused(store: Store, entry: OutboxEntry<S>, refusal: Refusal, asked: boolean): void;
}

export type OutboxHandlers = { [K in OutboxKind]: KindHandler<Extract<OutboxSubject, { kind: K }>> };

interface Outbox {
  storage: OutboxStorage;
  handlers: Partial<OutboxHandlers>;
  /** Resolves the promise of queueWrite for each key this tab queued, once its outcome is known. */
  waiters: Map<string, (outcome: Outcome) => void>;
  /** One send or cancel at a time in this tab. */
  chain: Promise<unknown>;
  flushing: Promise<void> | undefined;
  again: boolean;
  /** The users whose stored entries were put back on screen in this tab. */
  shownFor: Set<number>;
  channel: BroadcastChannel | undefined;
}

const outboxes = new WeakMap<Store, Outbox>();

function outboxOf(store: Store): Outbox {
  let outbox = outboxes.get(store);
  if (!outbox) {
    outbox = { storage: defaultStorage(), handlers: {}, waiters: new Map(), chain: Promise.resolve(), flushing: undefined, again: false, shownFor: new Set(), channel: undefined };
    outboxes.set(store, outbox);
  }
  return outbox;
}

/** Runs `work` after what this tab already started, and while no other tab sends. */
function exclusive<T>(outbox: Outbox, work: () => Promise<T>): Promise<T> {
  const locked = () => (typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request(LOCK, work) : work());
  const next = outbox.chain.then(locked, locked);
  outbox.chain = next.catch(() => undefined);
  return next;
}

function handlerOf(outbox: Outbox, entry: OutboxEntry): KindHandler<OutboxSubject> | undefined {
  // Each entry goes to the handler of its own kind: the map's type pairs them.
  return outbox.handlers[entry.subject.kind] as KindHandler<OutboxSubject> | undefined;
}

function publish(store: Store, outbox: Outbox, entries: readonly OutboxEntry[], told = true): void {
  store.set(outboxEntriesAtom, entries);
  if (told) outbox.channel?.postMessage('changed');
}

function setFresh(store: Store, key: string, fresh: boolean): void {
  store.set(outboxFreshKeysAtom, (keys) => {
    if (keys.has(key) === fresh) return keys;
    const next = new Set(keys);
    if (fresh) next.add(key);
    else next.delete(key);
    return next;
  });
}

/** Tells this tab's caller (if any) and the screen how `entry` came out. */
function settle(store: Store, outbox: Outbox, entry: OutboxEntry, outcome: Outcome): void {
  setFresh(store, entry.key, false);
  const waiter = outbox.waiters.get(entry.key);
  outbox.waiters.delete(entry.key);
  const handler = handlerOf(outbox, entry);
  try {
    if (outcome.status === 'sent') handler?.sent(store, entry, outcome.answer);
    else if (outcome.status === 'refused') handler?.refused(store, entry, outcome, waiter !== undefined);
  } finally {
    waiter?.(outcome);
  }
}

async function attempt(entry: OutboxEntry): Promise<Outcome> {
  try {
    const answer = await api<unknown>(entry.method, entry.path, entry.body, { idempotencyKey: entry.key });
    return { status: 'sent', answer };
  } catch (error) {
    if (isLostAnswer(error)) return { status: 'waiting' };
    if (isApiError(error)) return { status: 'refused', reason: 'refused', error };
    throw error;
  }
}

/** Sends the signed-in user's entries in order until one gets no answer or none is left. */
async function sendAll(store: Store, outbox: Outbox): Promise<void> {
  for (;;) {
    const entries = await outbox.storage.read();
    publish(store, outbox, entries, false);
    const userId = store.get(outboxUserIdAtom);
    const next = entries.find((entry) => entry.userId === userId);
    if (!next) break;
    const outcome: Outcome = Date.now() - next.createdAt > WINDOW_MS ? { status: 'refused', reason: 'expired' } : await attempt(next);
    if (outcome.status === 'waiting') break;
    publish(store, outbox, await outbox.storage.update((all) => all.filter((entry) => entry.key !== next.key)));
    settle(store, outbox, next, outcome);
  }
  // What this tab queued and did not settle above either waits, or was sent by another tab.
  const stored = new Map((await outbox.storage.read()).map((entry) => [entry.key, entry]));
  for (const [key, waiter] of [...outbox.waiters]) {
    setFresh(store, key, false);
    if (stored.has(key)) waiter({ status: 'waiting' });
    else waiter({ status: 'elsewhere' });
    outbox.waiters.delete(key);
  }
}

/** Sends what waits (now, or right after the send under way). */
export function flushOutbox(store: Store): Promise<void> {
  const outbox = outboxOf(store);
  if (outbox.flushing) {
    outbox.again = true;
    return outbox.flushing;
  }
  const run = async () => {
    try {
      do {
        outbox.again = false;
        await exclusive(outbox, () => sendAll(store, outbox));
      } while (outbox.again);
    } catch (error) {
      console.error('outbox: sending failed', error);
    } finally {
      // In the same step as the last check of `again`: a write queued from now on starts a new send.
      outbox.flushing = undefined;
    }
  };
  outbox.flushing = run();
  return outbox.flushing;
}

/**
 * Queues a write and tries it at once (after those before it). Resolves with its outcome as far
 * as it is known now: sent, refused, or waiting (it is sent later; its kind's handler then hears).
 */
export async function queueWrite<S extends OutboxSubject>(store: Store, input: NewEntry<S>): Promise<Outcome> {
  const outbox = outboxOf(store);
  const entry: OutboxEntry<S> = { ...input, ...requestOf(input.subject), key: newIdempotencyKey(), createdAt: Date.now() };
  let full = false;
  const entries = await outbox.storage.update((all) => (all.length >= OUTBOX_CAP ? ((full = true), all) : [...all, entry]));
  if (full) {
    const outcome: Outcome = { status: 'refused', reason: 'full' };
    settle(store, outbox, entry, outcome);
    return outcome;
  }
  setFresh(store, entry.key, true);
  publish(store, outbox, entries);
  const outcome = new Promise<Outcome>((resolve) => outbox.waiters.set(entry.key, resolve));
  void flushOutbox(store);
  return outcome;
}

/**
 * Takes back a write not yet sent (an unfavorite of a favorite still waiting): true when it was
 * still there, false when it had been sent meanwhile (its handler has applied the answer).
 */
export function cancelWrite(store: Store, key: string): Promise<boolean> {
  const outbox = outboxOf(store);
  return exclusive(outbox, async () => {
    let found = false;
    const entries = await outbox.storage.update((all) => all.filter((entry) => (entry.key === key ? !(found = true) : true)));
    publish(store, outbox, entries);
    setFresh(store, key, false);
    const waiter = outbox.waiters.get(key);
    outbox.waiters.delete(key);
    waiter?.({ status: 'cancelled' });
    return found;
  });
}

/**
 * The page is being closed with a write not yet queued (a delete still in its Undo time): it is
 * stored and sent with `keepalive` now, with the same key, so whichever arrives first does it and
 * the next start's replay changes nothing.
 */
export function queueOnExit<S extends OutboxSubject>(store: Store, input: NewEntry<S>): void {
  const outbox = outboxOf(store);
  const entry: OutboxEntry<S> = { ...input, ...requestOf(input.subject), key: newIdempotencyKey(), createdAt: Date.now() };
  void outbox.storage.update((all) => (all.length >= OUTBOX_CAP ? all : [...all, entry])).catch(() => undefined);
  api(entry.method, entry.path, entry.body, { idempotencyKey: entry.key, keepalive: true }).catch(() => undefined);
}

/**
 * The signed-in user changed (Layout): their stored entries are shown on screen once per tab, then
 * sent. `undefined` (signed out) sends nothing.
 */
export async function setOutboxUser(store: Store, userId: number | undefined): Promise<void> {
  store.set(outboxUserIdAtom, userId);
  if (userId === undefined) return;
  const outbox = outboxOf(store);
  if (!outbox.shownFor.has(userId)) {
    outbox.shownFor.add(userId);
    const entries = await outbox.storage.read();
    publish(store, outbox, entries, false);
    for (const entry of entries) {
      if (entry.userId === userId && !outbox.waiters.has(entry.key)) handlerOf(outbox, entry)?.show?.(store, entry);
    }
  }
  await flushOutbox(store);
}

/**
 * Starts the outbox of `store` (Layout, once): the kinds' handlers, and the moments it sends — the
 * `online` event, every SEND_EVERY_MS while entries wait, and news from another tab. The start-up
 * send itself follows setOutboxUser, once the session is known. Returns the stop.
 */
export function startOutbox(store: Store, handlers: OutboxHandlers, options: { storage?: OutboxStorage } = {}): () => void {
  const outbox = outboxOf(store);
  outbox.handlers = handlers;
  if (options.storage) outbox.storage = options.storage;
  const onOnline = () => void flushOutbox(store);
  window.addEventListener('online', onOnline);
  const timer = setInterval(() => {
    if (store.get(outboxEntriesAtom).length) void flushOutbox(store);
  }, SEND_EVERY_MS);
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => void outbox.storage.read().then((entries) => publish(store, outbox, entries, false));
    outbox.channel = channel;
  }
  return () => {
    window.removeEventListener('online', onOnline);
    clearInterval(timer);
    outbox.channel?.close();
    outbox.channel = undefined;
  };
}
