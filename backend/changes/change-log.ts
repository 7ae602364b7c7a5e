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
      ...textSubject(event, data),
    })
    .execute();
  return Number(seq);
}

/** Whose text a change carries: a pin's (its own events) or a comment's (which belongs to a pin too). */
function textSubject(event: ChangeEventName, data: unknown): { pin_id?: number; comment_id?: number } {
  if (event === 'pin:created' || event === 'pin:updated') return { pin_id: (data as ChangeData<'pin:created'>).pin.id };
  if (event === 'comment:created' || event === 'comment:updated') {
    const { comment } = data as ChangeData<'comment:created'>;
    return { pin_id: comment.pin_id, comment_id: comment.id };
  }
  return {};
}

/**
 * What an edit or a deletion does to the log's earlier rows, in its own transaction, before its
 * own row is recorded (docs/change-log.md): text that is no longer true stops being served.
 * - an edited pin's or comment's earlier rows carry its new text in place of the old;
 * - a deleted pin's rows, and its comments', and a deleted comment's rows are removed: the
 *   deletion itself (ids only) supersedes them for every reader.
 * Rows are locked in seq order, as pruning locks the rows it deletes: taking locks in one order,
 * the two cannot deadlock.
 */
export type Superseded =
  | { pinEdited: { id: number; title: string; description: string } }
  | { pinDeleted: number }
  | { commentEdited: { id: number; text: string } }
  | { commentDeleted: number };

export async function supersedeChanges(trx: Kysely<DB>, what: Superseded): Promise<void> {
  if (!trx.isTransaction) throw new Error('supersedeChanges must run inside the writing transaction');
  if ('pinEdited' in what) {
    const { id, title, description } = what.pinEdited;
    await sql`
      update changes set data = jsonb_set(data, '{pin}', (data -> 'pin') || jsonb_build_object('title', ${title}::text, 'description', ${description}::text))
      where seq in (select seq from changes where pin_id = ${id} and comment_id is null order by seq for update)`.execute(trx);
  } else if ('commentEdited' in what) {
    const { id, text } = what.commentEdited;
    await sql`
      update changes set data = jsonb_set(data, '{comment,text}', to_jsonb(${text}::text))
      where seq in (select seq from changes where comment_id = ${id} order by seq for update)`.execute(trx);
  } else {
    const where = 'pinDeleted' in what ? sql`pin_id = ${what.pinDeleted}` : sql`comment_id = ${what.commentDeleted}`;
    await sql`delete from changes where seq in (select seq from changes where ${where} order by seq for update)`.execute(trx);
  }
}

/**
 * Runs `work` in the caller's transaction when `db` is one (an idempotent create runs the service
 * on its transaction), else in a new one. Writes that record a change always run in one.
 */
export function inTransaction<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
