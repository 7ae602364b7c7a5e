import type { Request, RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import { RedisStore } from 'connect-redis';
import type { Redis } from 'ioredis';
import { CachedSessionStore } from './cached-session-store.ts';
import { BoundedMemoryStore, type SessionAdmission } from './memory-session-store.ts';
import { RedisSessionIndex } from './redis-session-index.ts';
import type { SessionDirectory } from './session-directory.ts';

declare module 'express-session' {
  interface SessionData {
    userId: number;
    /** The client address that signed in (per /56 for IPv6): the embedded store bounds sessions per address. */
    address: string;
  }
}

export const SESSION_COOKIE = 'pinboard.sid';

/** How long an instance trusts a session it read from Redis (logout elsewhere is told at once). */
const SESSION_CACHE_MS = 5_000;
const SESSION_CACHE_MAX = 50_000;

/**
 * Sessions live in Redis when it is configured (shared by every instance, remembered briefly in
 * process), otherwise in a bounded in-process store that never makes room by signing someone out.
 */
export function createSessionStore(options: {
  redis?: Redis | undefined;
  /** SOCKET_CHANNEL: deployments sharing one Redis keep their per-user session indexes apart (user 7 of one is not user 7 of another). */
  deployment: string;
  memoryMax: number;
  perUser: number;
  perAddress: number;
}): Store {
  if (options.redis) {
    const redisStore = new RedisStore({ client: options.redis, prefix: 'pinboard:sess:', disableTouch: true });
    return new CachedSessionStore(new RedisSessionIndex(redisStore, options.redis, `pinboard:user-sessions:${options.deployment}:`), { ttlMs: SESSION_CACHE_MS, max: SESSION_CACHE_MAX });
  }
  return new BoundedMemoryStore({ max: options.memoryMax, perUser: options.perUser, perAddress: options.perAddress });
}

/** What a sign-in asks before it changes anything: the bounded store answers, Redis takes every session. */
export function sessionAdmission(store: Store): SessionAdmission {
  return store instanceof BoundedMemoryStore ? store : { admit() {} };
}

/** Who lists a user's sessions in this store (docs/accounts.md): the embedded store, or Redis' index. */
export function sessionDirectory(store: Store): SessionDirectory {
  if (store instanceof BoundedMemoryStore) return store;
  const inner = store instanceof CachedSessionStore ? store.uncached : store;
  if (inner instanceof RedisSessionIndex) return inner;
  throw new Error('This session store cannot list a user’s sessions.');
}

/**
 * express-session, except for a read from a visitor who holds no session cookie: that visitor has
 * no session to load, and express-session would still mint an id and build a session object for
 * each such request only to drop it (saveUninitialized: false). Such a request gets no
 * `req.session`; code that reads it treats a missing session as signed out.
 */
export function sessionMiddleware(options: { store: Store; secret: string; maxAgeMs: number }): RequestHandler {
  const withSession = session({
    name: SESSION_COOKIE,
    store: options.store,
    secret: options.secret,
    // Only signed-in visitors get a stored session; anonymous browsing writes nothing.
    resave: false,
    saveUninitialized: false,
    rolling: false,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      // "auto": Secure whenever the request came over TLS (directly or per a trusted proxy).
      secure: 'auto',
      maxAge: options.maxAgeMs,
    },
  });
  const directory = sessionDirectory(options.store);
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !holdsCookie(req.headers.cookie, SESSION_COOKIE)) next();
    else
      withSession(req, res, (error?: unknown) => {
        const session = req.session as Request['session'] | undefined;
        // A signed-in request (or socket handshake) notes its session's use for the session list.
        if (!error && session?.userId !== undefined) directory.seen(req.sessionID, session, req.headers['user-agent']);
        // Only signed-in sessions are stored: a cookie whose session is not there any more was
        // ended elsewhere (another device changed the password, "Sign out everywhere else").
        // Dropped, so that the browser's next request is plainly anonymous and gets an
        // anti-forgery token of its own, instead of one still bound to the ended session.
        else if (!error && holdsCookie(req.headers.cookie, SESSION_COOKIE) && 'clearCookie' in res) res.clearCookie(SESSION_COOKIE, { path: '/' });
        next(error);
      });
  };
}

/** Whether a Cookie header names this cookie (parsing it is left to express-session). */
function holdsCookie(header: string | undefined, name: string): boolean {
  if (!header) return false;
  const at = header.indexOf(`${name}=`);
  return at === 0 || (at > 0 && (header[at - 1] === ' ' || header[at - 1] === ';'));
}
