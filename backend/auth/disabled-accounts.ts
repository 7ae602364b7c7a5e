import type { Request, RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { EventPublisher } from '../bus/event-bus.ts';

// Disabled accounts (docs/site-access.md). The operator's command ends a disabled account's
// sessions, sockets and tokens at once where it can reach them (Redis sessions, every instance
// through the socket adapter). This is the guard behind it, on every instance and in every run
// mode: a request that comes with a session of a disabled account ends that session (and, through
// `session.ended`, its sockets on every instance) and goes on as an anonymous visitor's.

interface Entry {
  disabled: boolean;
  /** Trusted without asking the database until then. */
  until: number;
}

/** Whether an account is disabled, asked of the database at most once per `ttlMs` per account on an instance. */
export class AccountStatus {
  readonly #db: Kysely<DB>;
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #cache = new Map<number, Entry>();

  constructor(db: Kysely<DB>, options: { ttlMs: number; max: number }) {
    this.#db = db;
    this.#ttlMs = options.ttlMs;
    this.#max = options.max;
  }

  async disabled(userId: number): Promise<boolean> {
    const now = Date.now();
    const known = this.#cache.get(userId);
    if (known && known.until > now) return known.disabled;
    const row = await this.#db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
    // A deleted account is as signed out as a disabled one.
    const disabled = !row || row.disabled_at !== null;
    this.#cache.delete(userId);
    this.#cache.set(userId, { disabled, until: now + this.#ttlMs });
    // Insertion order: the first key was asked longest ago.
    if (this.#cache.size > this.#max) this.#cache.delete(this.#cache.keys().next().value as number);
    return disabled;
  }
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}

/** After the session middleware: the session of a disabled (or deleted) account is ended, and the request is anonymous. */
export function endDisabledSessions(status: AccountStatus, events: EventPublisher): RequestHandler {
  return (req, _res, next) => {
    const userId = (req.session as Request['session'] | undefined)?.userId;
    if (userId === undefined) return next();
    const sessionId = req.sessionID;
    status
      .disabled(userId)
      .then(async (disabled) => {
        if (!disabled) return;
        await destroy(req);
        events.publish('session.ended', { userId, sessionId });
      })
      .then(() => next(), next);
  };
}
