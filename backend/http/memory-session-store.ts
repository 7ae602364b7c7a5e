import { type SessionData, Store } from 'express-session';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';
import { type ListedSession, SEEN_EVERY_MS, type SeenSession, type SessionDirectory, signedInAt, trimUserAgent } from './session-directory.ts';

interface Entry {
  /** Serialised, so nothing outside the store shares the stored object. */
  json: string;
  expiresAt: number;
  userId: number | undefined;
  /** The client address (per /56 for IPv6) that signed in, when the session says. */
  address: string | undefined;
  /** What the user's session list shows besides the sign-in time (session-directory.ts). */
  userAgent: string | null;
  lastSeenAt: number | undefined;
}

type Callback = (error?: unknown) => void;

/** Whether a new signed-in session could be stored now; the embedded store's answer (see below). */
export interface SessionAdmission {
  /** Throws the refusal (429 for the address, 503 when full) a new session would meet now. */
  admit(address: string, userId: number | undefined): void;
}

/**
 * The embedded mode's session store: bounded, and fair to the people already signed in. An LRU
 * store drops the least recently used session when full, so a flood of sign-ins signs real users
 * out. Here a full store first drops expired sessions, then sessions that belong to nobody; a user
 * who opens more than `perUser` sessions ends their own oldest; one client address holds at most
 * `perAddress` sessions (so one address cannot fill the store for everyone: it is refused with 429
 * instead); and if the store is still full, the new session is refused (503) rather than taken
 * from someone else.
 */
export class BoundedMemoryStore extends Store implements SessionAdmission, SessionDirectory {
  readonly #sessions = new Map<string, Entry>();
  /** Each user's session ids; a Set keeps insertion order, so the first is their oldest. */
  readonly #byUser = new Map<number, Set<string>>();
  readonly #byAddress = new Map<string, Set<string>>();
  readonly #max: number;
  readonly #perUser: number;
  readonly #perAddress: number;
  readonly #sweep: ReturnType<typeof setInterval>;

  constructor(options: { max: number; perUser: number; perAddress: number; sweepMs?: number }) {
    super();
    this.#max = options.max;
    this.#perUser = options.perUser;
    this.#perAddress = options.perAddress;
    this.#sweep = setInterval(() => this.#dropExpired(), options.sweepMs ?? 10 * 60_000);
    this.#sweep.unref();
  }

  admit(address: string, userId: number | undefined): void {
    const refusal = this.#refusal(address, userId);
    if (refusal) throw refusal;
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
    const { userId, address } = session;
    const previous = this.#sessions.get(sid);
    if (previous && (previous.userId !== userId || previous.address !== address)) this.#delete(sid);
    if (!this.#sessions.has(sid)) {
      if (userId !== undefined) this.#limitUser(userId);
      const refusal = this.#refusal(address, undefined);
      if (refusal) {
        callback?.(refusal);
        return;
      }
    }
    // A session saved again keeps what was noted of its use.
    const kept = this.#sessions.get(sid);
    const seen = { userAgent: kept?.userAgent ?? null, lastSeenAt: kept?.lastSeenAt };
    this.#sessions.set(sid, { json: JSON.stringify(session), expiresAt: expiryOf(session), userId, address, ...seen });
    if (userId !== undefined) addTo(this.#byUser, userId, sid);
    if (address !== undefined) addTo(this.#byAddress, address, sid);
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
    this.#byAddress.clear();
    callback?.();
  }

  sessionsOf(userId: number): Promise<ListedSession[]> {
    const now = Date.now();
    const listed: ListedSession[] = [];
    for (const sid of this.#byUser.get(userId) ?? []) {
      const entry = this.#sessions.get(sid);
      if (!entry || entry.expiresAt <= now) continue;
      const createdAt = signedInAt(JSON.parse(entry.json) as SessionData);
      listed.push({ sid, createdAt, lastSeenAt: entry.lastSeenAt === undefined ? createdAt : new Date(entry.lastSeenAt), userAgent: entry.userAgent });
    }
    return Promise.resolve(listed);
  }

  seen(sid: string, session: SeenSession, userAgent: string | undefined): void {
    const entry = this.#sessions.get(sid);
    if (!entry || entry.userId !== session.userId) return;
    const now = Date.now();
    if (entry.lastSeenAt !== undefined && now - entry.lastSeenAt < SEEN_EVERY_MS) return;
    entry.lastSeenAt = now;
    entry.userAgent = trimUserAgent(userAgent) ?? entry.userAgent;
  }

  close(): void {
    clearInterval(this.#sweep);
  }

  /**
   * Why a new session from `address` could not be stored (making room first where that is fair).
   * `userId`: a user at their own limit would end their oldest session, which frees a place.
   */
  #refusal(address: string | undefined, userId: number | undefined): HttpError | undefined {
    if (address !== undefined && (this.#byAddress.get(address)?.size ?? 0) >= this.#perAddress) {
      this.#dropExpired();
      if ((this.#byAddress.get(address)?.size ?? 0) >= this.#perAddress) return new HttpError(429, MSG.sessionsPerAddress);
    }
    const freed = userId !== undefined && (this.#byUser.get(userId)?.size ?? 0) >= this.#perUser ? 1 : 0;
    if (this.#sessions.size - freed >= this.#max) this.#makeRoom();
    if (this.#sessions.size - freed >= this.#max) return new HttpError(503, MSG.sessionsFull);
    return undefined;
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
    if (entry.userId !== undefined) removeFrom(this.#byUser, entry.userId, sid);
    if (entry.address !== undefined) removeFrom(this.#byAddress, entry.address, sid);
  }
}

function addTo<K>(index: Map<K, Set<string>>, key: K, sid: string): void {
  const own = index.get(key);
  if (own) own.add(sid);
  else index.set(key, new Set([sid]));
}

function removeFrom<K>(index: Map<K, Set<string>>, key: K, sid: string): void {
  const own = index.get(key);
  own?.delete(sid);
  if (own?.size === 0) index.delete(key);
}

function expiryOf(session: SessionData): number {
  const expires = session.cookie.expires;
  // A session cookie without an expiry lives for the browser session; keep it a day at most.
  return expires ? new Date(expires).getTime() : Date.now() + 24 * 3600_000;
}
