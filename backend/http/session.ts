import type { RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import { RedisStore } from 'connect-redis';
import type { Redis } from 'ioredis';
import { BoundedMemoryStore } from './memory-session-store.ts';

declare module 'express-session' {
  interface SessionData {
    userId: number;
  }
}

export const SESSION_COOKIE = 'pinboard.sid';

/**
 * Sessions live in Redis when it is configured (shared by every instance), otherwise in a bounded
 * in-process store that never makes room by signing someone out.
 */
export function createSessionStore(options: { redis?: Redis | undefined; memoryMax: number; perUser: number }): Store {
  if (options.redis) return new RedisStore({ client: options.redis, prefix: 'pinboard:sess:' });
  return new BoundedMemoryStore({ max: options.memoryMax, perUser: options.perUser });
}

export function sessionMiddleware(options: { store: Store; secret: string; maxAgeMs: number }): RequestHandler {
  return session({
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
}
