import type { RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import { RedisStore } from 'connect-redis';
import type { Redis } from 'ioredis';
import { CachedSessionStore } from './cached-session-store.ts';
import { BoundedMemoryStore, type SessionAdmission } from './memory-session-store.ts';

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
export function createSessionStore(options: { redis?: Redis | undefined; memoryMax: number; perUser: number; perAddress: number }): Store {
  if (options.redis) {
    const redisStore = new RedisStore({ client: options.redis, prefix: 'pinboard:sess:', disableTouch: true });
    return new CachedSessionStore(redisStore, { ttlMs: SESSION_CACHE_MS, max: SESSION_CACHE_MAX });
  }
  return new BoundedMemoryStore({ max: options.memoryMax, perUser: options.perUser, perAddress: options.perAddress });
}

/** What a sign-in asks before it changes anything: the bounded store answers, Redis takes every session. */
export function sessionAdmission(store: Store): SessionAdmission {
  return store instanceof BoundedMemoryStore ? store : { admit() {} };
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
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !holdsCookie(req.headers.cookie, SESSION_COOKIE)) next();
    else withSession(req, res, next);
  };
}

/** Whether a Cookie header names this cookie (parsing it is left to express-session). */
function holdsCookie(header: string | undefined, name: string): boolean {
  if (!header) return false;
  const at = header.indexOf(`${name}=`);
  return at === 0 || (at > 0 && (header[at - 1] === ' ' || header[at - 1] === ';'));
}
