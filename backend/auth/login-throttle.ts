import type { Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { MSG } from '../../contract/messages.ts';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { counterStore } from '../http/rate-limits.ts';

/**
 * Password guessing is slowed the way OWASP's Authentication Cheat Sheet recommends, without
 * letting anyone lock anyone else out:
 * - per (account, address): a hard limit on failures, answered 429 with Retry-After — the guesser
 *   is stopped, and the account's owner elsewhere is not affected;
 * - per account, from anywhere: once failures pass a threshold, every attempt on that account waits
 *   a delay that doubles with each further failure (up to a maximum) before the password is checked.
 *   A correct password still gets in, only later; rotating addresses buys a guesser nothing.
 * Counters live in the rate-limit store (Redis when configured), so every instance shares them.
 */
export interface LoginThrottle {
  /** Refuses (429) an address that failed this account too often; otherwise waits the account's delay. */
  beforeAttempt(email: string, address: string): Promise<void>;
  recordFailure(email: string, address: string): Promise<void>;
  /** A success clears this address's failures for the account (not the account's own count). */
  recordSuccess(email: string, address: string): Promise<void>;
}

const FIRST_DELAY_MS = 250;

export function createLoginThrottle(config: Config['rateLimits'], redis: Redis | undefined): LoginThrottle {
  const perAddress: Store = counterStore(`${config.deployment}:login-pair`, config.windowMs, redis);
  const perAccount: Store = counterStore(`${config.deployment}:login-account`, config.windowMs, redis);
  const accountKey = (email: string) => email.trim().toLowerCase().slice(0, 254);
  const pairKey = (email: string, address: string) => `${accountKey(email)}|${address}`;

  return {
    async beforeAttempt(email, address) {
      const pair = await perAddress.get?.(pairKey(email, address));
      if (pair && pair.totalHits >= config.loginFailuresPerAddress) {
        const seconds = pair.resetTime ? Math.max(1, Math.ceil((pair.resetTime.getTime() - Date.now()) / 1000)) : 60;
        throw new HttpError(429, MSG.loginThrottled, { retryAfterSeconds: seconds });
      }
      const account = await perAccount.get?.(accountKey(email));
      const over = (account?.totalHits ?? 0) - config.loginFailuresPerAccount;
      if (over >= 0) {
        const delay = Math.min(config.loginDelayMaxMs, FIRST_DELAY_MS * 2 ** Math.min(over, 20));
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    },
    async recordFailure(email, address) {
      await Promise.all([perAddress.increment(pairKey(email, address)), perAccount.increment(accountKey(email))]);
    },
    async recordSuccess(email, address) {
      await perAddress.resetKey(pairKey(email, address));
    },
  };
}
