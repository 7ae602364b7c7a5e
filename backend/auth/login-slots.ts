import type { Redis } from 'ioredis';

/**
 * Each slowed account's next free sign-in slot, so that its attempts run one after the other, one
 * delay apart: an attempt takes the slot `next = max(now, next) + delay` and waits until then. A
 * sleep decided per attempt would let any number of attempts sent at once sleep side by side and
 * then all be checked together. An attempt whose slot would be more than `maxWaitMs` away takes
 * none (it is refused) and is told when one would be close enough.
 */
export interface AccountSlots {
  reserve(account: string, delayMs: number, maxWaitMs: number): Promise<{ waitMs: number } | { retryAfterMs: number }>;
}

export function createAccountSlots(prefix: string, redis: Redis | undefined): AccountSlots {
  return redis ? redisSlots(`pinboard:rl:${prefix}:`, redis) : memorySlots();
}

// One script, so the read and the write of `next` are one step for every instance. Redis' own
// clock (TIME) keeps instances with skewed clocks in one queue; the key expires with its last slot.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local delay = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0')) + delay
local wait = slot - now
if wait > maxWait then return {0, wait - maxWait} end
redis.call('SET', KEYS[1], slot, 'PX', wait + 1000)
return {1, wait}
`;

function redisSlots(prefix: string, redis: Redis): AccountSlots {
  return {
    async reserve(account, delayMs, maxWaitMs) {
      const reply = (await redis.eval(RESERVE, 1, `${prefix}${account}`, String(delayMs), String(maxWaitMs))) as [number, number];
      const [taken, ms] = reply.map(Number) as [number, number];
      return taken === 1 ? { waitMs: ms } : { retryAfterMs: ms };
    },
  };
}

/** Entries past their slot are dropped now and then, so the map holds only accounts being slowed. */
const SWEEP_AT = 10_000;

function memorySlots(): AccountSlots {
  const next = new Map<string, number>();
  return {
    reserve(account, delayMs, maxWaitMs) {
      const now = Date.now();
      if (next.size >= SWEEP_AT) for (const [key, at] of next) if (at <= now) next.delete(key);
      const slot = Math.max(now, next.get(account) ?? 0) + delayMs;
      const wait = slot - now;
      if (wait > maxWaitMs) return Promise.resolve({ retryAfterMs: wait - maxWaitMs });
      next.set(account, slot);
      return Promise.resolve({ waitMs: wait });
    },
  };
}
