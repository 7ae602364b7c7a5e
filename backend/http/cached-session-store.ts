import { type SessionData, Store } from 'express-session';

type Callback = (error?: unknown) => void;

interface Entry {
  /** Serialised: express-session mutates the object it is given, so each request gets its own. */
  json: string;
  until: number;
}

export interface SessionCacheOptions {
  /** How long a session read from the store is trusted without asking it again. */
  ttlMs: number;
  /** Sessions remembered at most; the oldest is dropped first. */
  max: number;
}

/**
 * A shared session store (Redis) with a short in-process memory in front, so a signed-in read costs
 * no round trip while its session was read in the last few seconds. A session that is changed or
 * ended here is told to the other instances (`onChange`, wired to the socket adapter by
 * backend/realtime/cache-relay.ts), which forget it before the change answers; expiry is checked
 * on every read; and if a message is ever lost, the TTL bounds how long another instance can still
 * accept an ended session.
 *
 * It deliberately has no `touch`: sessions do not roll (the cookie's expiry is fixed at sign-in),
 * so refreshing the store's TTL on every request would be a write per read for nothing.
 */
export class CachedSessionStore extends Store {
  readonly #inner: Store;
  readonly #options: SessionCacheOptions;
  readonly #cache = new Map<string, Entry>();
  /** Counts changes and forgets: a read that overlapped one may have fetched what it replaced. */
  #changes = 0;
  /**
   * Tells the other instances that a session changed or ended; set once the adapter exists. It
   * settles when they have forgotten it (or after a bounded wait), and only then does the change
   * answer: a logout that has answered is over on every instance.
   */
  onChange: (sessionId: string) => Promise<void> = async () => {};

  constructor(inner: Store, options: SessionCacheOptions) {
    super();
    this.#inner = inner;
    this.#options = options;
  }

  /**
   * The store itself, for the sockets' session checks: they are rare (a client message, or once a
   * minute), and they must see a session that vanished from the store however it went.
   */
  get uncached(): Store {
    return this.#inner;
  }

  override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    const entry = this.#cache.get(sid);
    if (entry && entry.until > Date.now()) {
      callback(null, JSON.parse(entry.json) as SessionData);
      return;
    }
    if (entry) this.#cache.delete(sid);
    const changes = this.#changes;
    this.#inner.get(sid, (error, session) => {
      if (!error && session && changes === this.#changes) this.#remember(sid, session);
      callback(error, session);
    });
  }

  override set(sid: string, session: SessionData, callback?: Callback): void {
    this.#changes++;
    this.#cache.delete(sid);
    this.#inner.set(sid, session, (error) => {
      if (!error) this.#remember(sid, session);
      void this.onChange(sid).then(() => callback?.(error));
    });
  }

  override destroy(sid: string, callback?: Callback): void {
    this.#changes++;
    this.#cache.delete(sid);
    this.#inner.destroy(sid, (error) => {
      void this.onChange(sid).then(() => callback?.(error));
    });
  }

  /** Another instance changed or ended this session. */
  forget(sid: string): void {
    this.#changes++;
    this.#cache.delete(sid);
  }

  /** Forget everything (after this instance may have missed messages). */
  forgetAll(): void {
    this.#changes++;
    this.#cache.clear();
  }

  #remember(sid: string, session: SessionData): void {
    const expires = session.cookie.expires ? new Date(session.cookie.expires).getTime() : Infinity;
    const until = Math.min(Date.now() + this.#options.ttlMs, expires);
    if (until <= Date.now()) return;
    this.#cache.delete(sid);
    this.#cache.set(sid, { json: JSON.stringify(session), until });
    if (this.#cache.size > this.#options.max) {
      // Insertion order: the first key is the session remembered longest ago.
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
  }
}
