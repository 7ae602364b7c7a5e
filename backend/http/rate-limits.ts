import type { Request, RequestHandler } from 'express';
import { type AugmentedRequest, MemoryStore, type Options, rateLimit, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { MSG } from '../../contract/messages.ts';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';

export interface RateLimiters {
  /** Attempts to sign in or up, per client address (the session check and logout are not attempts). */
  authPerIp: RequestHandler;
  /** Every API call, per client address: a coarse flood guard. */
  apiPerIp: RequestHandler;
}

/**
 * A counter store of the rate-limit library with its own key prefix: in Redis when configured
 * (shared by every instance), else in process. Ready to use (initialised with its window).
 */
export function counterStore(name: string, windowMs: number, redis: Redis | undefined): Store {
  const store: Store = redis ? redisStore(name, redis) : new MemoryStore();
  store.init?.({ windowMs } as Options);
  return store;
}

function redisStore(name: string, redis: Redis): Store {
  return new RedisStore({
    prefix: `pinboard:rl:${name}:`,
    sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<number>,
  });
}

/**
 * Fail open, quietly: while the store is down every client counts as under the limit. (The
 * library's own `passOnStoreError` prints a stack trace to the console for every request.)
 * Failures are reported through `onError`, which the caller throttles.
 */
function failOpen(store: Store, onError: (error: unknown) => void): Store {
  const guard = async <T>(run: () => Promise<T> | T, fallback: T): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      onError(error);
      return fallback;
    }
  };
  return {
    prefix: store.prefix,
    localKeys: store.localKeys,
    init: (options) => store.init?.(options),
    increment: (key) => guard(() => store.increment(key), { totalHits: 0, resetTime: undefined }),
    decrement: (key) => guard(() => store.decrement(key), undefined),
    resetKey: (key) => guard(() => store.resetKey(key), undefined),
  };
}

function limiter(
  name: string,
  options: Partial<Options> & { limit: number; windowMs: number; failOpen?: (error: unknown) => void },
  redis: Redis | undefined,
  message: string,
): RequestHandler {
  const { failOpen: onStoreError, ...limitOptions } = options;
  let store: Store | undefined = redis ? redisStore(name, redis) : undefined;
  if (store && onStoreError) store = failOpen(store, onStoreError);
  return rateLimit({
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(store ? { store } : {}),
    ...limitOptions,
    handler: (req: Request, res, next) => {
      const resetTime = (req as AugmentedRequest).rateLimit?.resetTime;
      const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
      res.set('Retry-After', String(seconds));
      next(new HttpError(429, message));
    },
  });
}

export function createRateLimiters(
  config: Config['rateLimits'],
  redis: Redis | undefined,
  logger: { warn(details: object, message: string): void },
): RateLimiters {
  let lastWarning = 0;
  const storeDown = (error: unknown) => {
    // One line per 10 s while Redis is down, not one per request.
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    logger.warn({ err: error }, 'rate-limit store unavailable: general API limit not enforced');
  };
  return {
    // Auth limits fail closed: if their store is down, sign-in waits rather than going unthrottled.
    authPerIp: limiter('auth', { windowMs: config.windowMs, limit: config.authPerIp, passOnStoreError: false }, redis, MSG.rateLimited),
    // The general limit fails open: a Redis outage should not take reads down with it.
    apiPerIp: limiter('api', { windowMs: config.windowMs, limit: config.apiPerIp, failOpen: storeDown }, redis, MSG.rateLimited),
  };
}
