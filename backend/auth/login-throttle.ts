import type { Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { MSG } from '../../contract/messages.ts';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { counterStore } from '../http/rate-limits.ts';
import { type AccountSlots, createAccountSlots } from './login-slots.ts';

/**
 * Password guessing is slowed the way OWASP's Authentication Cheat Sheet recommends, without
 * letting anyone lock anyone else out for long:
 * - per (account, address): a hard limit on failures, answered 429 with Retry-After — the guesser
 *   is stopped, and the account's owner elsewhere is not affected;
 * - per account, from anywhere: once failures pass a threshold, every attempt on that account takes
 *   the next free slot of that account — a delay that doubles with each further failure (up to a
 *   maximum) after the previous slot — and waits for it before the password is checked. Attempts
 *   on one account therefore run one per delay, never side by side, however many addresses send
 *   them; one whose slot is further away than the queue allows gets 429 with Retry-After.
 *   A correct password still gets in, only later; rotating addresses buys a guesser nothing.
 *
 * Every attempt is counted before its password is checked (an atomic increment, then the
 * comparison), so attempts sent at once cannot all pass a check made before any of them failed.
 * A success takes its counts back (and clears the address's failures for the account); so does an
 * attempt that was refused or never got to the check. Counters and slots live in Redis when it is
 * configured (every instance shares them), else in process.
 */
export interface LoginThrottle {
  /**
   * Counts the attempt, refuses it (429) when over a limit, else waits for the account's slot.
   * The caller must settle the returned attempt once the password check has an outcome.
   */
  begin(email: string, address: string): Promise<LoginAttempt>;
}

export interface LoginAttempt {
  /** The password was right: the address's failures for the account are cleared. */
  succeeded(): Promise<void>;
  /** The password was never judged (an error before or during the check): nothing stays counted. */
  abandoned(): Promise<void>;
}

const FIRST_DELAY_MS = 250;

/** The wait before the attempt on an account that has failed `failures` times (this one not included). */
function delayAfter(failures: number, threshold: number, maxMs: number): number {
  const over = failures - threshold;
  return over < 0 ? 0 : Math.min(maxMs, FIRST_DELAY_MS * 2 ** Math.min(over, 20));
}

function retryAfterSeconds(resetTime: Date | undefined): number {
  return resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
}

export function createLoginThrottle(config: Config['rateLimits'], redis: Redis | undefined): LoginThrottle {
  const perAddress: Store = counterStore(`${config.deployment}:login-pair`, config.windowMs, redis);
  const perAccount: Store = counterStore(`${config.deployment}:login-account`, config.windowMs, redis);
  const slots: AccountSlots = createAccountSlots(`${config.deployment}:login-slot`, redis);
  const accountKey = (email: string) => email.trim().toLowerCase().slice(0, 254);
  const pairKey = (email: string, address: string) => `${accountKey(email)}|${address}`;

  return {
    async begin(email, address) {
      const pair = pairKey(email, address);
      const account = accountKey(email);
      const pairCount = await perAddress.increment(pair);
      if (pairCount.totalHits > config.loginFailuresPerAddress) {
        // Not taken back: it changes nothing (the address is over either way) and keeps this cheap.
        throw new HttpError(429, MSG.loginThrottled, { retryAfterSeconds: retryAfterSeconds(pairCount.resetTime) });
      }
      let accountCounted = false;
      const undo = async () => {
        await Promise.all([perAddress.decrement(pair), accountCounted ? perAccount.decrement(account) : undefined]);
      };
      try {
        const accountCount = await perAccount.increment(account);
        accountCounted = true;
        const delayMs = delayAfter(accountCount.totalHits - 1, config.loginFailuresPerAccount, config.loginDelayMaxMs);
        if (delayMs > 0) {
          const slot = await slots.reserve(account, delayMs, config.loginQueueMaxMs);
          if ('retryAfterMs' in slot) {
            throw new HttpError(429, MSG.loginThrottled, { retryAfterSeconds: Math.max(1, Math.ceil(slot.retryAfterMs / 1000)) });
          }
          await new Promise((resolve) => setTimeout(resolve, slot.waitMs));
        }
      } catch (error) {
        await undo().catch(() => {});
        throw error;
      }
      return {
        async succeeded() {
          await Promise.all([perAddress.resetKey(pair), perAccount.decrement(account)]);
        },
        abandoned: undo,
      };
    },
  };
}
