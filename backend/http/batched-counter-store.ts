import type { ClientRateLimitInfo, IncrementResponse, Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';

/**
 * A counter store for express-rate-limit that answers from memory and reconciles with Redis in
 * batches, so a request costs no Redis round trip.
 *
 * Windows are fixed and aligned to the wall clock (`start = floor(now / windowMs) * windowMs`), so
 * every instance counts a key in the same Redis counter, `pinboard:rl:<name>:<start>:<key>` (on a
 * Redis Cluster `{pinboard:rl:<name>:<start>}:<key>`, one hash slot per window). A hit
 * is answered at once with `known + own`: the window's total across all instances as Redis last
 * answered, plus this instance's hits since. Every `flushMs` one pipeline sends the hits counted
 * since the last one (an INCRBY per key, and a PEXPIRE the first time) and the replies bring back
 * each key's new total.
 *
 * Tolerance (Redis answering): an instance admits at most P − 1 hits of a key that no
 * reconciliation has seen yet, P = ceil(limit / 50) (`reconcileAfter`): the hit that brings its
 * unreconciled hits to P waits for a reconciliation that includes it. Once the Redis total passes
 * the limit, every instance's next reconciliation says so, and before it each instance admits at
 * most P − 1 more. So N instances together admit at most `limit + N × (P − 1)` hits of a key per
 * window, and no hit is refused before the key's count across instances passes the limit: with
 * 2 instances and a limit of 200, calls one at a time get their first 429 at call 201 to 207.
 * (Concurrent calls that waited are judged with the calls counted meanwhile, so a flood may be
 * refused up to its calls in flight before the limit.) Only a key counting P hits on one instance
 * within about one flush interval ever waits: with the defaults (5,000 per 10 s, P = 100, 200 ms)
 * that is 500 calls/s from one address to one instance, the limit's own rate.
 *
 * Beyond that: a fixed window lets a client spend the limit at the end of one window and again at
 * the start of the next. While Redis fails, instances keep counting alone (so each still limits,
 * and N instances admit up to N × limit), retry sending their hits while the window lasts, and
 * report through `onError`. Memory: only the current window's counters are kept, at most
 * `maxKeys` of them; a new key beyond that evicts the least recently counted one, whose hits not
 * yet sent are lost (a flood from more addresses than that escapes a per-address limit anyway).
 */
export interface BatchedCounterOptions {
  /** Names the counters in Redis. */
  name: string;
  windowMs: number;
  /** The limit this store serves; it sizes how many hits an instance may count unreconciled. */
  limit: number;
  /** Shared by every instance. Without it the store counts in this process only. */
  redis?: Redis | undefined;
  flushMs?: number;
  maxKeys?: number;
  /** A failed reconciliation (the caller throttles its logging). */
  onError?: (error: unknown) => void;
}

interface Counter {
  /** The window's total across instances, as Redis last answered. */
  known: number;
  /** This instance's hits in the reconciliation in flight. */
  sending: number;
  /** This instance's hits not sent yet. */
  unsent: number;
  /** This instance has set the Redis counter's expiry (once per window is enough). */
  expiring: boolean;
}

interface Window {
  start: number;
  /** In order of last hit: the first is the least recently counted. */
  counters: Map<string, Counter>;
}

const FLUSH_MS = 200;
const MAX_KEYS = 50_000;
/** The unreconciled hits an instance may admit, as a share of the limit (see the tolerance above). */
const UNRECONCILED_SHARE = 50;

export class BatchedCounterStore implements Store {
  readonly localKeys: boolean;
  readonly prefix: string;
  readonly reconcileAfter: number;
  readonly #windowMs: number;
  readonly #redis: Redis | undefined;
  readonly #flushMs: number;
  readonly #maxKeys: number;
  readonly #onError: (error: unknown) => void;
  #window: Window = { start: 0, counters: new Map() };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  /** False after a failed reconciliation, until one succeeds: no hit waits on a Redis that fails. */
  #healthy = true;
  #closed = false;

  constructor(options: BatchedCounterOptions) {
    this.prefix = `pinboard:rl:${options.name}:`;
    this.localKeys = options.redis === undefined;
    this.reconcileAfter = Math.max(1, Math.ceil(options.limit / UNRECONCILED_SHARE));
    this.#windowMs = options.windowMs;
    this.#redis = options.redis;
    this.#flushMs = options.flushMs ?? FLUSH_MS;
    this.#maxKeys = options.maxKeys ?? MAX_KEYS;
    this.#onError = options.onError ?? (() => {});
  }

  increment(key: string): IncrementResponse | Promise<IncrementResponse> {
    const window = this.#current();
    const counter = this.#touch(window, key);
    counter.unsent += 1;
    if (!this.#redis || this.#closed) return this.#answer(window, counter);
    this.#arm();
    if (this.#healthy && counter.sending + counter.unsent >= this.reconcileAfter) {
      return this.#reconcile().then(() => this.#answer(window, counter));
    }
    return this.#answer(window, counter);
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const window = this.#current();
    const counter = window.counters.get(key);
    return counter && this.#answer(window, counter);
  }

  decrement(key: string): void {
    const counter = this.#current().counters.get(key);
    if (counter) counter.unsent -= 1;
  }

  async resetKey(key: string): Promise<void> {
    const window = this.#current();
    window.counters.delete(key);
    await this.#redis?.del(this.#redisKey(window, key)).catch(this.#onError);
  }

  /** Stops reconciling (the Redis client is closing); counting goes on in process. */
  shutdown(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves once every hit counted before the call has been sent and answered (or failed). */
  flush(): Promise<void> {
    return this.#reconcile();
  }

  #answer(window: Window, counter: Counter): ClientRateLimitInfo {
    return { totalHits: counter.known + counter.sending + counter.unsent, resetTime: new Date(window.start + this.#windowMs) };
  }

  #current(): Window {
    const start = Math.floor(Date.now() / this.#windowMs) * this.#windowMs;
    // Past windows' counters are dropped whole, hits not yet sent included: they count no more.
    if (start > this.#window.start) this.#window = { start, counters: new Map() };
    return this.#window;
  }

  #touch(window: Window, key: string): Counter {
    let counter = window.counters.get(key);
    if (counter) {
      window.counters.delete(key);
    } else {
      counter = { known: 0, sending: 0, unsent: 0, expiring: false };
      if (window.counters.size >= this.#maxKeys) {
        const oldest = window.counters.keys().next();
        if (!oldest.done) window.counters.delete(oldest.value);
      }
    }
    window.counters.set(key, counter);
    return counter;
  }

  #redisKey(window: Window, key: string): string {
    // On a Redis Cluster a pipeline must stay within one hash slot: a window's counters share
    // one (the `{…}` tag), so each flush is one pipeline to the node that owns it.
    return this.#redis?.isCluster ? `{${this.prefix}${window.start}}:${key}` : `${this.prefix}${window.start}:${key}`;
  }

  #arm(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#reconcile();
    }, this.#flushMs);
    // Only hits arm it, so an idle store holds no timer; and it never keeps the process alive.
    this.#timer.unref();
  }

  /** One reconciliation at a time: a call during one waits for it, then for the next. */
  #reconcile(): Promise<void> {
    if (!this.#inFlight) {
      this.#inFlight = this.#send().finally(() => {
        this.#inFlight = undefined;
      });
      return this.#inFlight;
    }
    this.#queued ??= this.#inFlight.then(() => {
      this.#queued = undefined;
      return this.#reconcile();
    });
    return this.#queued;
  }

  async #send(): Promise<void> {
    const redis = this.#redis;
    if (!redis || this.#closed) return;
    const window = this.#current();
    const batch: Array<{ key: string; counter: Counter; hits: number; expire: boolean }> = [];
    for (const [key, counter] of window.counters) {
      if (counter.unsent === 0) continue;
      batch.push({ key, counter, hits: counter.unsent, expire: !counter.expiring });
      counter.sending += counter.unsent;
      counter.unsent = 0;
    }
    if (batch.length === 0) return;
    // The counter outlives its window by one more, so instances whose clocks differ a little
    // still find it.
    const ttl = window.start + 2 * this.#windowMs - Date.now();
    const pipeline = redis.pipeline();
    const replyIndex: number[] = [];
    for (const { key, hits, expire } of batch) {
      const redisKey = this.#redisKey(window, key);
      replyIndex.push(pipeline.length);
      pipeline.incrby(redisKey, hits);
      if (expire) pipeline.pexpire(redisKey, ttl);
    }
    let failure: unknown;
    try {
      const replies = (await pipeline.exec()) ?? [];
      batch.forEach(({ counter, hits, expire }, i) => {
        const at = replyIndex[i] as number;
        const [error, total] = replies[at] ?? [new Error('no reply')];
        counter.sending -= hits;
        if (error || typeof total !== 'number') {
          failure ??= error ?? new Error(`unexpected reply ${String(total)}`);
          counter.unsent += hits;
        } else {
          counter.known = Math.max(counter.known, total);
          if (expire && replies[at + 1]?.[0] === null) counter.expiring = true;
        }
      });
    } catch (error) {
      failure = error;
      for (const { counter, hits } of batch) {
        counter.sending -= hits;
        counter.unsent += hits;
      }
    }
    this.#healthy = failure === undefined;
    if (failure !== undefined) {
      this.#onError(failure);
      // Sent again at the next tick while the window lasts: once Redis is back the instances'
      // totals include them.
      this.#arm();
    }
  }
}
