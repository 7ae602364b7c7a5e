import { type Kysely, sql } from 'kysely';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { DB } from '../../db/schema.ts';
import type { Audience, Change } from '../bus/bus-events.ts';
import type { EventPublisher } from '../bus/event-bus.ts';
import { afterCommit, beforeCommit, transaction } from '../transactions/transaction.ts';
import { POSITION_BITS, transactionBase } from './position.ts';

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

/** Who may read a change from the log: everyone (the feed's and a public pin's changes), or only the users named. */
function readers(audience: Audience): { public: boolean; user_ids: number[] } {
  if (typeof audience === 'object' && 'userIds' in audience && audience.userIds) return { public: false, user_ids: [...audience.userIds] };
  return { public: true, user_ids: [] };
}

/**
 * Writes the transaction's changes to the log in one statement, at positions made of the
 * transaction's id and their order in it (position.ts): no counter, so no writer waits for another.
 */
async function logChanges(trx: Kysely<DB>, recorded: ReadonlyArray<{ change: Recorded; events: EventPublisher }>): Promise<void> {
  if (recorded.length === 0) return;
  if (recorded.length >= 2 ** POSITION_BITS) throw new Error(`one transaction recorded ${recorded.length} changes, more than a position can number`);
  const rows = recorded.map(({ change }, index) => ({
    ord: index + 1,
    event: change.event,
    data: change.data,
    ...readers(change.audience),
    ...textSubject(change.event, change.data),
  }));
  const {
    rows: [logged],
  } = await sql<{ first: string }>`
    with logged as (
      insert into changes (seq, event, data, public, user_ids, pin_id, comment_id)
      select ${transactionBase} + c.ord, c.event, c.data, c.public, c.user_ids, c.pin_id, c.comment_id
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as c(ord integer, event text, data jsonb, public boolean, user_ids integer[], pin_id integer, comment_id integer)
      returning seq)
    select min(seq) as first from logged`.execute(trx);
  const first = Number(logged?.first);
  if (!Number.isSafeInteger(first + rows.length)) throw new Error(`change position ${logged?.first} is past what a client can read`);
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
