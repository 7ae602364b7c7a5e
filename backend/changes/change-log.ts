import { type Kysely, sql } from 'kysely';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { DB } from '../../db/schema.ts';

/** Who may read a change from the log: everyone, or only these users (an actor, a board's members). */
export type Audience = { public: true } | { userIds: readonly number[] };

/** Everyone may read it: pins, likes counts, comments. */
export const PUBLIC: Audience = { public: true };

/**
 * Writes one change to the log in the caller's transaction and returns its `seq` (DESIGN §12).
 * Call it as the last statement before the commit: taking the number locks the counter row until
 * the transaction ends, which is what makes numbers visible in commit order, and every writer
 * waits for that lock.
 */
export async function recordChange<E extends ChangeEventName>(
  trx: Kysely<DB>,
  event: E,
  data: ChangeData<E>,
  audience: Audience,
): Promise<number> {
  if (!trx.isTransaction) throw new Error('recordChange must run inside the writing transaction');
  const { seq } = await trx
    .updateTable('change_counter')
    .set({ seq: sql<string>`seq + 1` })
    .returning('seq')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('changes')
    .values({
      seq,
      event,
      data: JSON.stringify(data),
      public: 'public' in audience,
      user_ids: 'userIds' in audience ? [...audience.userIds] : [],
    })
    .execute();
  return Number(seq);
}

/**
 * Runs `work` in the caller's transaction when `db` is one (an idempotent create runs the service
 * on its transaction), else in a new one. Writes that record a change always run in one.
 */
export function inTransaction<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
