import argon2 from 'argon2';
import pLimit from 'p-limit';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

// argon2id at the OWASP Password Storage Cheat Sheet's baseline: m=19 MiB, t=2, p=1.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

// argon2 runs on libuv's thread pool (4 threads), which also reads every file the server sends. A
// flood of sign-ins with unknown emails once held all four, and index.html took seconds to serve:
// so hashing takes at most `concurrency` threads, and beyond a bounded queue a sign-in is refused
// (503) instead of waiting without end. The pool is per process, so the limit is too.
let limit = pLimit(2);
let maxQueued = 100;
// Passwords that never sign anyone in here: in production, the demo's default password, which the
// README prints, so an account seeded with it outside production cannot be entered with it.
let refused: ReadonlySet<string> = new Set();

export function configurePasswordHashing(options: { concurrency: number; queue: number; refused?: readonly string[] }): void {
  limit = pLimit(options.concurrency);
  maxQueued = options.queue;
  refused = new Set(options.refused ?? []);
}

/** A password this server never accepts (see `refused`): sign-up asks for another. */
export function isRefusedPassword(password: string): boolean {
  return refused.has(password);
}

function hashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (limit.pendingCount >= maxQueued) return Promise.reject(new HttpError(503, MSG.busy));
  return limit(work);
}

export function hashPassword(password: string): Promise<string> {
  return hashingSlot(() => argon2.hash(password, OPTIONS));
}

/** Whether `hash` is of `password`, refused or not (maintenance: is the demo's default still set?). */
export function hashMatches(hash: string, password: string): Promise<boolean> {
  return hashingSlot(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

/** Whether `password` signs in with `hash`: a refused password never does (it is verified all the same, so it takes as long). */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return (await hashMatches(hash, password)) && !refused.has(password);
}

// Verifying against a real hash when the email is unknown keeps the response time the same, so
// timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;
export async function burnVerifyTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-for-timing').catch((error: unknown) => {
    dummyHash = undefined; // a refused first try must not be remembered
    throw error;
  });
  await verifyPassword(await dummyHash, password);
}
