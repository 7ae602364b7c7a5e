import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { BearerCaller } from '../http/caller.ts';
import { hashSecret } from './secrets.ts';
import { findTokenByHash } from './tokens.service.ts';

export type Verdict = { ok: true; caller: BearerCaller } | { ok: false; reason: 'invalid' | 'expired' };

interface Entry {
  caller: BearerCaller;
  /** Epoch ms, or null: never expires. */
  expiresAt: number | null;
  /** Trusted without asking the database until then. */
  until: number;
}

export interface TokenCacheOptions {
  /** How long a token read from the database is trusted (a lost revoke message is bounded by it). */
  ttlMs: number;
  /** Tokens remembered at most; the oldest is dropped first. */
  max: number;
}

/**
 * Checks bearer secrets against the stored hashes, with a short in-process memory in front so a
 * script's calls cost no query each. A revoke here forgets the token at once and tells the other
 * instances (`onRevoke`, wired to the socket adapter by backend/tokens/token-relay.ts), and the
 * revoke answers only once they have forgotten it too (or after a bounded wait): a revoked token is
 * refused everywhere as soon as its DELETE has answered. Expiry is checked on every call. Unknown
 * secrets are not remembered: a flood of made-up ones is the per-address limit's job.
 */
export class TokenVerifier {
  readonly #db: Kysely<DB>;
  readonly #options: TokenCacheOptions;
  readonly #cache = new Map<string, Entry>();
  /** Counts forgets: a lookup that overlapped one may have read what the revoke deleted. */
  #changes = 0;
  /** Tells the other instances; settles when they have forgotten the token (or gave up waiting). */
  onRevoke: (secretHash: string) => Promise<void> = async () => {};

  constructor(db: Kysely<DB>, options: TokenCacheOptions) {
    this.#db = db;
    this.#options = options;
  }

  async verify(secret: string): Promise<Verdict> {
    const hash = hashSecret(secret);
    const now = Date.now();
    let entry = this.#cache.get(hash);
    if (!entry || entry.until <= now) {
      this.#cache.delete(hash);
      const changes = this.#changes;
      const row = await findTokenByHash(this.#db, hash);
      if (!row) return { ok: false, reason: 'invalid' };
      entry = {
        caller: { userId: row.user_id, tokenId: row.id, scope: row.scope },
        expiresAt: row.expires_at ? row.expires_at.getTime() : null,
        until: Date.now() + this.#options.ttlMs,
      };
      if (changes === this.#changes) this.#remember(hash, entry);
    }
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) return { ok: false, reason: 'expired' };
    return { ok: true, caller: entry.caller };
  }

  /** A token was revoked here: forget it, and have every other instance forget it before answering. */
  async revoked(secretHash: string): Promise<void> {
    this.forget(secretHash);
    await this.onRevoke(secretHash);
  }

  /** Another instance revoked this token. */
  forget(secretHash: string): void {
    this.#changes++;
    this.#cache.delete(secretHash);
  }

  /** Forget everything (after this instance may have missed messages). */
  forgetAll(): void {
    this.#changes++;
    this.#cache.clear();
  }

  #remember(hash: string, entry: Entry): void {
    this.#cache.set(hash, entry);
    if (this.#cache.size > this.#options.max) {
      // Insertion order: the first key was remembered longest ago.
      this.#cache.delete(this.#cache.keys().next().value as string);
    }
  }
}
