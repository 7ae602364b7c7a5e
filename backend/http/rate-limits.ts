import type { Request, RequestHandler } from 'express';
import { type AugmentedRequest, type ClientRateLimitInfo, ipKeyGenerator, MemoryStore, type Options, rateLimit, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { MSG } from '../../contract/messages.ts';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { sendCommand } from '../redis.ts';
import { BatchedCounterStore } from './batched-counter-store.ts';

export interface RateLimiters {
  /** Attempts to sign in or up, per client address (the session check and logout are not attempts). */
  authPerIp: RequestHandler;
  /** Every API call, per client address: a coarse flood guard. */
  apiPerIp: RequestHandler;
  /** Every call with one personal access token (after the token check: `req.bearer` is set). */
  apiPerToken: RequestHandler;
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
    // On a cluster, SCRIPT LOAD goes to every master (backend/redis.ts), the rest to the key's node.
    sendCommand: (command: string, ...args: string[]) => sendCommand(redis, command, ...args) as Promise<number>,
  });
}

function limiter(options: Partial<Options> & { limit: number; windowMs: number }, message: string): RequestHandler {
  return rateLimit({
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...options,
    handler: (req: Request, res, next) => {
      const resetTime = (req as AugmentedRequest).rateLimit?.resetTime;
      const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
      res.set('Retry-After', String(seconds));
      next(new HttpError(429, message));
    },
  });
}

/**
 * The general API limit on the hot path, without the library's middleware: its asynchronous chain
 * (half a dozen awaits, per-request validations, a SHA-256 for the draft-8 headers) was 13–25 % of a
 * cached read's CPU in bench:rest's profile. This counts synchronously in the batched store, keys
 * an address as the library does (IPv6 per /56), and answers a flood with 429 and Retry-After; it
 * sends no RateLimit headers, which a flood guard sized never to be met has no use for.
 */
function apiLimiter(store: BatchedCounterStore, limit: number, keyOf: (req: Request) => string): RequestHandler {
  return (req, res, next) => {
    const judge = (info: ClientRateLimitInfo) => {
      if (info.totalHits <= limit) {
        next();
        return;
      }
      const seconds = info.resetTime ? Math.max(1, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)) : 1;
      res.set('Retry-After', String(seconds));
      next(new HttpError(429, MSG.rateLimited));
    };
    const counted = store.increment(keyOf(req));
    if (counted instanceof Promise) counted.then(judge, next);
    else judge(counted);
  };
}

export function createRateLimiters(config: Config['rateLimits'], redis: Redis | undefined, logger: { warn(details: object, message: string): void }): RateLimiters {
  let lastWarning = 0;
  const storeDown = (error: unknown) => {
    // One line per 10 s while Redis is down, not one per request.
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    logger.warn({ err: error }, 'rate-limit store unavailable: general API limit counted per instance');
  };
  // The general limit counts in process and reconciles in batches: no Redis round trip per call.
  // It fails open: a Redis outage leaves each instance counting alone rather than taking reads down.
  const apiStore = new BatchedCounterStore({ name: `${config.deployment}:api`, windowMs: config.apiWindowMs, limit: config.apiPerIp, redis, onError: storeDown });
  // Its timer lives as long as the Redis client: the server's shutdown closes that client last.
  const tokenStore = new BatchedCounterStore({ name: `${config.deployment}:token`, windowMs: config.apiWindowMs, limit: config.apiPerToken, redis, onError: storeDown });
  redis?.once('end', () => {
    apiStore.shutdown();
    tokenStore.shutdown();
  });
  return {
    // Auth limits fail closed: if their store is down, sign-in waits rather than going unthrottled.
    // Sign-ins are rare and the limit must be exact, so every attempt asks Redis (in process without it).
    authPerIp: limiter({ windowMs: config.windowMs, limit: config.authPerIp, passOnStoreError: false, ...(redis ? { store: redisStore(`${config.deployment}:auth`, redis) } : {}) }, MSG.rateLimited),
    apiPerIp: apiLimiter(apiStore, config.apiPerIp, (req) => ipKeyGenerator(req.ip ?? '', 56)),
    apiPerToken: apiLimiter(tokenStore, config.apiPerToken, (req) => `token:${String(req.bearer?.tokenId)}`),
  };
}
