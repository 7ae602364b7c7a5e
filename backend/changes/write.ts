import { type Kysely, sql } from 'kysely';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { DB } from '../../db/schema.ts';
import type { Audience, Change } from '../events/bus-events.ts';
import type { EventPublisher } from '../events/event-bus.ts';
import { afterCommit, beforeCommit, transaction } from '../events/transaction.ts';

/** What write() needs: the database (or the caller's transaction) and the bus. */
export interface WriteContext {
  db: Kysely<DB>;
  events: EventPublisher;
}

/**
 * Records one change: `event` is its socket event name, `data` its payload without `seq`,
 * `audience` who it is for (bus-events.ts). Its log row is written, and its `seq` taken, when the
 * transaction's work is done, just before the commit (below).
 */
export type RecordChange = <E extends ChangeEventName>(event: E, data: ChangeData<E>, audience: Audience) => void;

type Recorded = Omit<Change, 'seq'>;

/** The changes recorded in each transaction opened by transaction(), and the bus each goes to. */
const recordedIn = new WeakMap<Kysely<DB>, Array<{ change: Recorded; events: EventPublisher }>>();

/**
 * The one way to commit changes (docs/change-log.md): runs `work` in the caller's transaction
 * when `ctx.db` is one (opened by write() or transaction()), else in a new one. The changes it
 * records are written to the log in one statement once the outermost transaction's work is done,
 * and, once it has committed, published on the bus, in order, as `change`: the relays take them to
 * the caches and the sockets. After a rollback nothing is published.
 */
export function write<T>(ctx: WriteContext, work: (trx: Kysely<DB>, record: RecordChange) => Promise<T>): Promise<T> {
  return transaction(ctx.db, (trx) => {
    let recorded = recordedIn.get(trx);
    if (!recorded) {
      const list: Array<{ change: Recorded; events: EventPublisher }> = [];
      recordedIn.set(trx, list);
      beforeCommit(trx, () => logChanges(trx, list));
      recorded = list;
    }
    const into = recorded;
    return work(trx, (event, data, audience) => {
      // A Change of one event: TypeScript cannot tie a generic `event` to its member of the union.
      into.push({ change: { event, data, audience } as Recorded, events: ctx.events });
    });
  });
}

/**
 * Writes the transaction's changes to the log, numbered from the counter row, in one statement:
 * taking the numbers locks that row until the commit, which is what makes numbers visible in commit
 * order, and every writer waits for that lock — so it is taken as late as possible, and held for
 * this statement and the commit only.
 */
/** Who may read a change from the log: everyone (the feed's and a public pin's changes), or only the users named. */
function readers(audience: Audience): { public: boolean; user_ids: number[] } {
  if (typeof audience === 'object' && 'userIds' in audience && audience.userIds) return { public: false, user_ids: [...audience.userIds] };
  return { public: true, user_ids: [] };
}

async function logChanges(trx: Kysely<DB>, recorded: ReadonlyArray<{ change: Recorded; events: EventPublisher }>): Promise<void> {
  if (recorded.length === 0) return;
  const rows = recorded.map(({ change }, index) => ({
    ord: index + 1,
    event: change.event,
    data: change.data,
    // Who may read it: everyone (the feed's and a public pin's changes), or only the users named.
    ...readers(change.audience),
    ...textSubject(change.event, change.data),
  }));
  const { rows: [head] } = await sql<{ seq: string }>`
    with counter as (update change_counter set seq = seq + ${rows.length} returning seq)
    insert into changes (seq, event, data, public, user_ids, pin_id, comment_id)
    select counter.seq - ${rows.length} + c.ord, c.event, c.data, c.public, c.user_ids, c.pin_id, c.comment_id
    from counter, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as c(ord integer, event text, data jsonb, public boolean, user_ids integer[], pin_id integer, comment_id integer)
    returning (select seq from counter)`.execute(trx);
  if (!head) throw new Error('change_counter has no row');
  const first = Number(head.seq) - rows.length + 1;
  afterCommit(trx, () => {
    recorded.forEach(({ change, events }, index) => events.publish('change', { ...change, seq: first + index } as Change));
  });
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
