import { type Kysely, sql } from 'kysely';
import { CHANGES_PAGE_MAX, type ChangeEntry, type ChangesAnswer } from '../../contract/changes.ts';
import type { DB } from '../../db/schema.ts';
import { changeForReader } from './reader-view.ts';
import { visibleTo } from '../visibility/pin-access.ts';
import { ceiling, horizon } from './position.ts';

interface Row {
  head: string;
  ceiling: string;
  pruned_through: string;
  seq: string | null;
  event: string | null;
  data: Record<string, unknown> | null;
}

/** The newest position below the horizon (position.ts), or where pruning stopped when none is left. */
const headSql = sql<string>`greatest(counter.pruned_through, (select max(changes.seq) from changes where changes.seq < ${horizon}))`;

/**
 * GET /api/changes (contract/changes.ts): what `userId` (undefined: anonymous) may see after
 * `since`. One statement, so the horizon, the head and the changes come from one snapshot: a page
 * holds only positions below the horizon, which are final, so a page that is not full is complete
 * up to the head, and a full one up to its last change. The scan walks the primary key from `since`
 * and stops after a page of visible rows: its cost is bounded by the log's length (a day by default).
 */
export async function readChanges(db: Kysely<DB>, userId: number | undefined, since: number): Promise<ChangesAnswer> {
  // A row for named users is theirs only while it still is: one that names a pin, while they may
  // see the pin; one that carries a board (its name, its covers), while they are its member — a
  // member removed from the board of a private pin reads nothing more of either
  // (docs/who-sees-what.md). Their removal, and a deletion, name ids only and always reach them.
  const pinOfRow = sql`coalesce(changes.pin_id, (changes.data ->> 'pinId')::int, (changes.data #>> '{pin,id}')::int, (changes.data #>> '{favorite,pin_id}')::int)`;
  const boardOfRow = sql`coalesce((changes.data ->> 'boardId')::int, (changes.data #>> '{board,id}')::int)`;
  const stillTheirs = sql`(${pinOfRow} is null or exists (select 1 from pins where pins.id = ${pinOfRow} and ${visibleTo(userId)}))
    and (${boardOfRow} is null or changes.event in ('board:member-removed', 'board:deleted', 'board:pin-removed')
      or exists (select 1 from boards b where b.id = ${boardOfRow} and (b.user_id = ${userId} or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = ${userId}))))`;
  const visible = userId === undefined ? sql`changes.public` : sql`(changes.public or (${userId}::integer = any(changes.user_ids) and ${stillTheirs}))`;
  const { rows } = await sql<Row>`
    with bound as (select ${horizon} as horizon)
    select ${headSql} as head, ${ceiling} as ceiling, counter.pruned_through, page.seq, page.event, page.data
    from change_counter counter
    cross join bound
    left join lateral (
      select changes.seq, changes.event, changes.data from changes
      where changes.seq > ${since} and changes.seq < bound.horizon and ${visible}
      order by changes.seq
      limit ${CHANGES_PAGE_MAX}
    ) page on true
    order by page.seq`.execute(db);
  const first = rows[0];
  if (!first) throw new Error('change_counter has no row');
  const head = Number(first.head);
  // Asked from before what pruning kept, or from a position no transaction has had yet (a log
  // restored elsewhere): start over. (The head itself may step back, when an edit or a deletion
  // rewrote the newest rows: a cursor past it is not behind.)
  if (since < Number(first.pruned_through) || since >= Number(first.ceiling)) return { reset: true, lastSeq: head };
  const changes: ChangeEntry[] = [];
  for (const row of rows) {
    if (row.seq === null || row.event === null || row.data === null) continue;
    // A board's `role` is the reader's own: the log keeps one copy for all its members.
    const data = userId === undefined ? row.data : changeForReader(row.event, row.data, userId);
    changes.push({ seq: Number(row.seq), event: row.event, data } as ChangeEntry);
  }
  // Never behind the reader's own cursor: the horizon can fall back between two reads (a transaction
  // of another database that ended before it could be told apart counts as open, position.ts), and
  // so can the head (a deletion); a page complete up to a head below `since` has nothing to add to
  // what the reader holds, and a cursor moved back would read changes it already has again.
  return { changes, lastSeq: Math.max(head, since) };
}

/** The log's head (`changes:head`): a plain read, it waits for no writer. */
export async function readHead(db: Kysely<DB>): Promise<number> {
  const {
    rows: [row],
  } = await sql<{ head: string }>`select ${headSql} as head from change_counter counter`.execute(db);
  if (!row) throw new Error('change_counter has no row');
  return Number(row.head);
}

/**
 * Deletes the changes older than `retentionHours` and raises `pruned_through`, in one transaction
 * (a reader sees both or neither). It deletes a prefix of seqs, up to the newest old row: `created_at`
 * is a transaction's start time, so ages are not quite in seq order, and a hole in the middle of
 * the log would make a reader miss a change without being told to reset. Returns the rows deleted.
 */
export async function pruneChanges(db: Kysely<DB>, retentionHours: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const cutoff = sql<Date>`now() - make_interval(hours => ${retentionHours})`;
    const last = await trx
      .selectFrom('changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('created_at', '<', cutoff)
      .executeTakeFirst();
    if (last?.seq == null) return 0;
    // Rows locked in seq order, as an edit's or a deletion's rewrite of earlier rows locks them
    // (supersede.ts): two transactions taking locks in one order cannot deadlock.
    const deleted = await trx
      .deleteFrom('changes')
      .where('seq', 'in', (eb) => eb.selectFrom('changes').select('seq').where('seq', '<=', last.seq).orderBy('seq').forUpdate())
      .executeTakeFirst();
    // Last, so writers wait for this row lock only for the commit.
    await trx
      .updateTable('change_counter')
      .set({ pruned_through: sql<string>`greatest(pruned_through, ${last.seq}::bigint)` })
      .execute();
    return Number(deleted.numDeletedRows);
  });
}
