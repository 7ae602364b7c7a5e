import { type SessionData, Store } from 'express-session';
import type { Redis } from 'ioredis';
import { expiresAt, type ListedSession, SEEN_EVERY_MS, type SeenSession, type SessionDirectory, signedInAt, trimUserAgent } from './session-directory.ts';

type Callback = (error?: unknown) => void;

/** What the index keeps per session: its last use (ms) and user agent, once a request came with it. */
interface Seen {
  at?: number;
  ua?: string | null;
}

// Adds (or, with ARGV[4] = '1', replaces) one session's field in its user's hash, and keeps the
// hash until the latest of its sessions expires. One script, so no instance sees a hash without
// its expiry. KEYS[1] the user's hash; ARGV: session id, value, milliseconds to live, replace.
const NOTE = `
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) else redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) end
local wanted = tonumber(ARGV[3])
if redis.call('PTTL', KEYS[1]) < wanted then redis.call('PEXPIRE', KEYS[1], wanted) end
return 1
`;

/** Instances forget which sessions they noted recently past this many (they note them again: harmless). */
const NOTED_MAX = 50_000;

/**
 * The Redis session store (connect-redis) with a per-user index beside it: a hash
 * `pinboard:user-sessions:<deployment>:<userId>` whose fields are that user's session ids, written when a
 * session is saved signed in and when a request comes with it (which also indexes a session saved
 * before the index existed). Ended and expired sessions are dropped from it when it is listed: a
 * session is whatever the store holds, the index only says where to look.
 */
export class RedisSessionIndex extends Store implements SessionDirectory {
  readonly #inner: Store;
  readonly #redis: Redis;
  readonly #prefix: string;
  /** When this instance last noted each session's use. */
  readonly #noted = new Map<string, number>();

  constructor(inner: Store, redis: Redis, prefix: string) {
    super();
    this.#inner = inner;
    this.#redis = redis;
    this.#prefix = prefix;
  }

  override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    this.#inner.get(sid, callback);
  }

  override set(sid: string, session: SessionData, callback?: Callback): void {
    this.#inner.set(sid, session, (error) => {
      if (error || session.userId === undefined) return callback?.(error);
      // Indexed before the sign-in answers: a session nobody can list is one nobody can end.
      this.#note(session.userId, sid, {}, expiresAt(session), false).then(() => callback?.(), callback);
    });
  }

  override destroy(sid: string, callback?: Callback): void {
    this.#noted.delete(sid);
    this.#inner.destroy(sid, callback);
  }

  seen(sid: string, session: SeenSession, userAgent: string | undefined): void {
    if (session.userId === undefined) return;
    const now = Date.now();
    if (now - (this.#noted.get(sid) ?? 0) < SEEN_EVERY_MS) return;
    if (this.#noted.size >= NOTED_MAX) this.#noted.clear();
    this.#noted.set(sid, now);
    // Not awaited: a request does not wait for its "last seen", nor fails for it.
    this.#note(session.userId, sid, { at: now, ua: trimUserAgent(userAgent) }, expiresAt(session), true).catch(() => this.#noted.delete(sid));
  }

  async sessionsOf(userId: number): Promise<ListedSession[]> {
    const key = this.#key(userId);
    const fields = await this.#redis.hgetall(key);
    const listed: ListedSession[] = [];
    const gone: string[] = [];
    await Promise.all(
      Object.entries(fields).map(async ([sid, value]) => {
        const session = await this.#read(sid);
        if (session?.userId !== userId) {
          gone.push(sid);
          return;
        }
        const seen = parseSeen(value);
        const createdAt = signedInAt(session);
        listed.push({ sid, createdAt, lastSeenAt: seen.at ? new Date(seen.at) : createdAt, userAgent: seen.ua ?? null });
      }),
    );
    if (gone.length) await this.#redis.hdel(key, ...gone);
    return listed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  #key(userId: number): string {
    return `${this.#prefix}${userId}`;
  }

  async #note(userId: number, sid: string, seen: Seen, until: number, replace: boolean): Promise<void> {
    const ttl = Math.max(1_000, until - Date.now());
    await this.#redis.eval(NOTE, 1, this.#key(userId), sid, JSON.stringify(seen), String(ttl), replace ? '1' : '0');
  }

  #read(sid: string): Promise<SessionData | null> {
    return new Promise((resolve, reject) => this.#inner.get(sid, (error, session) => (error ? reject(error as Error) : resolve(session ?? null))));
  }
}

function parseSeen(value: string): Seen {
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Seen) : {};
  } catch {
    return {};
  }
}
