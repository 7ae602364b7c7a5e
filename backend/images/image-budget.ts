import type { Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';
import { counterStore } from '../http/rate-limits.ts';

// One budget of images per user, whatever way they come in: an upload, a fetch by URL, and (in
// time) each item of a bulk import. Every image costs a fetch or a body, a processing slot of up to
// IMAGE_PROCESS_TIMEOUT_SECONDS and storage, so the budget counts images, each capped in cost by
// the processing limits (docs/images.md). Counted in Redis when there is one (every instance
// shares it), else in process.

export type BudgetAnswer = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface ImageBudget {
  /**
   * Takes one image from `userId`'s budget. When none is left it takes nothing and answers when
   * to try again: a request turns that into 429 (`overBudget`), a job waits that long.
   */
  take(userId: number): Promise<BudgetAnswer>;
}

export interface ImageBudgetOptions {
  perUser: number;
  windowMs: number;
  redis: Redis | undefined;
  /** Deployments sharing a Redis count apart (SOCKET_CHANNEL). */
  deployment: string;
  /** A store that cannot be reached lets images through (the budget bounds cost, it guards no secret). */
  onStoreError: (error: unknown) => void;
}

export function createImageBudget(options: ImageBudgetOptions): ImageBudget {
  const store: Store = counterStore(`${options.deployment}:images`, options.windowMs, options.redis);
  return {
    async take(userId) {
      const key = `user:${userId}`;
      try {
        const { totalHits, resetTime } = await store.increment(key);
        if (totalHits <= options.perUser) return { ok: true };
        // Refused: given back, so waiting (a job asking again) does not push the reset further.
        await store.decrement(key);
        const ms = resetTime ? resetTime.getTime() - Date.now() : options.windowMs;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
      } catch (error) {
        options.onStoreError(error);
        return { ok: true };
      }
    },
  };
}

/** The 429 a request gets when its user's budget is spent. */
export function overBudget(answer: { retryAfterSeconds: number }): HttpError {
  return new HttpError(429, MSG.imageBudgetSpent, { retryAfterSeconds: answer.retryAfterSeconds });
}
