import { type SessionData, Store } from 'express-session';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

interface Entry {
  /** Serialised, so nothing outside the store shares the stored object. */
  json: string;
  expiresAt: number;
  userId: number | undefined;
}

type Callback = (error?: unknown) => void;

/**
 * The embedded mode's session store: bounded, and fair to the people already signed in. An LRU
 * store drops the least recently used session when full, so a flood of sign-ins signs real users
 * out. Here a full store first drops expired sessions, then sessions that belong to nobody; a user
 * who opens more than `perUser` sessions ends their own oldest; and if it is still full, the new
 * session is refused (503) rather than taken from someone else.
 */
export class BoundedMemoryStore extends Store {
  readonly #sessions = new Map<string, Entry>();
  /** Each user's session ids; a Set keeps insertion order, so the first is their oldest. */
  readonly #byUser = new Map<number, Set<string>>();
  readonly #max: number;
  readonly #perUser: number;
  readonly #sweep: ReturnType<typeof setInterval>;

  constructor(options: { max: number; perUser: number; sweepMs?: number }) {
    super();
    this.#max = options.max;
    this.#perUser = options.perUser;
    this.#sweep = setInterval(() => this.#dropExpired(), options.sweepMs ?? 10 * 60_000);
    this.#sweep.unref();
  }

  override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    const entry = this.#sessions.get(sid);
    if (!entry || entry.expiresAt <= Date.now()) {
      if (entry) this.#delete(sid);
      callback(null, null);
      return;
    }
    callback(null, JSON.parse(entry.json) as SessionData);
  }

  override set(sid: string, session: SessionData, callback?: Callback): void {
    const userId = session.userId;
    const previous = this.#sessions.get(sid);
    if (previous && previous.userId !== userId) this.#delete(sid);
    if (!this.#sessions.has(sid)) {
      if (userId !== undefined) this.#limitUser(userId);
      if (this.#sessions.size >= this.#max) this.#makeRoom();
      if (this.#sessions.size >= this.#max) {
        callback?.(new HttpError(503, MSG.sessionsFull));
        return;
      }
    }
    this.#sessions.set(sid, { json: JSON.stringify(session), expiresAt: expiryOf(session), userId });
    if (userId !== undefined) {
      const own = this.#byUser.get(userId) ?? new Set<string>();
      own.add(sid);
      this.#byUser.set(userId, own);
    }
    callback?.();
  }

  override touch(sid: string, session: SessionData, callback?: Callback): void {
    const entry = this.#sessions.get(sid);
    if (entry) entry.expiresAt = expiryOf(session);
    callback?.();
  }

  override destroy(sid: string, callback?: Callback): void {
    this.#delete(sid);
    callback?.();
  }

  override length(callback: (error: unknown, length?: number) => void): void {
    callback(null, this.#sessions.size);
  }

  override clear(callback?: Callback): void {
    this.#sessions.clear();
    this.#byUser.clear();
    callback?.();
  }

  close(): void {
    clearInterval(this.#sweep);
  }

  /** Ends the user's oldest sessions so that a new one keeps them within `perUser`. */
  #limitUser(userId: number): void {
    const own = this.#byUser.get(userId);
    while (own && own.size >= this.#perUser) {
      const [oldest] = own;
      if (oldest === undefined) break;
      this.#delete(oldest);
    }
  }

  #makeRoom(): void {
    this.#dropExpired();
    if (this.#sessions.size < this.#max) return;
    for (const [sid, entry] of this.#sessions) if (entry.userId === undefined) this.#delete(sid);
  }

  #dropExpired(): void {
    const now = Date.now();
    for (const [sid, entry] of this.#sessions) if (entry.expiresAt <= now) this.#delete(sid);
  }

  #delete(sid: string): void {
    const entry = this.#sessions.get(sid);
    if (!entry) return;
    this.#sessions.delete(sid);
    if (entry.userId === undefined) return;
    const own = this.#byUser.get(entry.userId);
    own?.delete(sid);
    if (own?.size === 0) this.#byUser.delete(entry.userId);
  }
}

function expiryOf(session: SessionData): number {
  const expires = session.cookie.expires;
  // A session cookie without an expiry lives for the browser session; keep it a day at most.
  return expires ? new Date(expires).getTime() : Date.now() + 24 * 3600_000;
}
