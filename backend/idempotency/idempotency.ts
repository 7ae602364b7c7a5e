import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { type Kysely, sql } from 'kysely';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, IdempotencyKey } from '../../contract/idempotency.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { transaction } from '../transactions/transaction.ts';
import { HttpError } from '../errors.ts';

// Idempotent writes (contract/idempotency.ts): the creates, and every write the web client's outbox
// queues (docs/outbox.md). The record lives in Postgres (`idempotency_keys`), so every instance sees
// it, and it is claimed in the same transaction as the write itself:
//
//   1. insert a placeholder for (user, key) — if another request holds the same key uncommitted,
//      Postgres makes this insert wait until that one commits or rolls back;
//   2a. claimed → run the write on the transaction, store its answer (status and body) in the
//       placeholder, commit, then publish the write's events and answer;
//   2b. already there → the stored answer, if it was for the same request (else 422): a repeated
//       DELETE answers like the first one did, not 404, and changes nothing.
//
// A failed write (404, 409, …) rolls everything back, the claim included, so a retry runs again.
// Records older than LIMITS.idempotencyKeyHours count as absent: step 1 takes them over, and a
// sweep deletes them now and then.

const EXPIRED = sql<Date>`now() - make_interval(hours => ${LIMITS.idempotencyKeyHours})`;
const SWEEP_INTERVAL_MS = 60_000;

interface IdempotentRequest {
  /** The operation with its path parameters filled in, e.g. `POST /api/comments/pins/7/comments`. */
  operation: string;
  /** The signed-in caller: a key belongs to one user. */
  userId: number;
  /** The validated input (undefined for a DELETE); with `operation` it is what makes two requests "the same". */
  input: unknown;
}

interface IdempotentCreate<T> extends IdempotentRequest {
  /** The status of a successful create. */
  status: number;
  /** The create itself, on the context it is given (a transaction's when a key is used). */
  run: (ctx: ServiceContext) => Promise<T>;
}

/** What a write answers: its status (which may vary, e.g. 201 added / 200 already there) and body. */
export interface WriteAnswer {
  status: number;
  body: unknown;
}

interface IdempotentWrite extends IdempotentRequest {
  /** The write itself, on the context it is given (a transaction's when a key is used), and its answer. */
  run: (ctx: ServiceContext) => Promise<WriteAnswer>;
}

/**
 * Runs a create route's work and sends the answer, honouring an `Idempotency-Key` header when the
 * request has one. Call it after authentication and input validation.
 */
export function withIdempotency<T>(ctx: ServiceContext, req: Request, res: Response, create: IdempotentCreate<T>): Promise<void> {
  return withIdempotentWrite(ctx, req, res, { ...create, run: async (runCtx) => ({ status: create.status, body: await create.run(runCtx) }) });
}

/**
 * Runs a write route's work and sends its answer, honouring an `Idempotency-Key` header when the
 * request has one: the status and body the write answered are what a repeat gets. Call it after
 * authentication and input validation.
 */
export async function withIdempotentWrite(ctx: ServiceContext, req: Request, res: Response, write: IdempotentWrite): Promise<void> {
  const key = idempotencyKeyOf(req);
  if (key === undefined) {
    const { status, body } = await write.run(ctx);
    res.status(status).json(body);
    return;
  }
  const { userId } = write;
  const requestHash = fingerprint(write.operation, write.input);
  sweepExpired(ctx.db, req);

  // The write joins this transaction: its changes are heard once it has committed (a replay has none).
  const answer = await transaction(ctx.db, async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({ user_id: userId, key, request_hash: requestHash, status_code: 0, response: 'null' })
      .onConflict((oc) =>
        oc
          .constraint('idempotency_keys_pkey')
          // An expired record is taken over as if it were not there.
          .doUpdateSet({ request_hash: requestHash, status_code: 0, response: 'null', created_at: sql<Date>`now()` })
          .where('idempotency_keys.created_at', '<', EXPIRED),
      )
      .returning('key')
      .executeTakeFirst();

    if (!claimed) {
      const stored = await trx.selectFrom('idempotency_keys').select(['request_hash', 'status_code', 'response']).where('user_id', '=', userId).where('key', '=', key).executeTakeFirstOrThrow();
      if (stored.request_hash !== requestHash) throw new HttpError(422, MSG.idempotencyKeyReused);
      // A placeholder is only ever visible to its own transaction, which fills it before committing.
      if (stored.status_code === 0) throw new Error('idempotency record without an answer');
      return { status: stored.status_code, body: stored.response, replayed: true };
    }

    const { status, body } = await write.run({ ...ctx, db: trx });
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: status, response: JSON.stringify(body) })
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .execute();
    return { status, body, replayed: false };
  });

  if (answer.replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(answer.status).json(answer.body);
}

/** The request's key; undefined without the header; 400 for a malformed one. */
function idempotencyKeyOf(req: Request): string | undefined {
  const value = req.get(IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return undefined;
  const result = IdempotencyKey.safeParse(value);
  if (!result.success) {
    throw new HttpError(400, MSG.idempotencyKeyInvalid, { fields: { [IDEMPOTENCY_KEY_HEADER]: MSG.idempotencyKeyInvalid } });
  }
  return result.data;
}

/** sha256 over the operation and the canonical JSON of its input (object keys sorted). */
function fingerprint(operation: string, input: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(input)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const lastSweep = new WeakMap<Kysely<DB>, number>();

/**
 * Deletes expired records, at most once a minute per database handle, without holding up the
 * request (no timer: it rides on the requests that use keys). Errors are logged, never thrown: the
 * expired records are ignored anyway.
 */
function sweepExpired(db: Kysely<DB>, req: Request): void {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_INTERVAL_MS) return;
  lastSweep.set(db, now);
  db.deleteFrom('idempotency_keys')
    .where('created_at', '<', EXPIRED)
    .execute()
    .catch((error: unknown) => req.log.warn({ err: error }, 'deleting expired idempotency keys failed'));
}
