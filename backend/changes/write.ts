import { type Kysely, sql } from 'kysely';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { DB } from '../../db/schema.ts';
import type { Audience, Change } from '../events/bus-events.ts';
import type { EventPublisher } from '../events/event-bus.ts';
import { afterCommit, transaction } from '../events/transaction.ts';

/** What write() needs: the database (or the caller's transaction) and the bus. */
export interface WriteContext {
  db: Kysely<DB>;
  events: EventPublisher;
}

/**
 * Records one change in the log and returns its `seq`: `event` is its socket event name, `data`
 * its payload without `seq`, `audience` who it is for (bus-events.ts). Call it as the last
 * statement of the write: taking the number locks the counter row until the transaction ends,
 * which is what makes numbers visible in commit order, and every writer waits for that lock.
 */
export type RecordChange = <E extends ChangeEventName>(event: E, data: ChangeData<E>, audience: Audience) => Promise<number>;

/**
 * The one way to commit changes (docs/change-log.md): runs `work` in the caller's transaction
 * when `ctx.db` is one (opened by write() or transaction()), else in a new one. Each `record` writes
 * the change's log row in that transaction, and once the outermost transaction has committed every
 * recorded change is published on the bus, in order, as `change`: the relays take it to the caches
 * and the sockets. After a rollback nothing is published.
 */
export function write<T>(ctx: WriteContext, work: (trx: Kysely<DB>, record: RecordChange) => Promise<T>): Promise<T> {
  return transaction(ctx.db, (trx) =>
    work(trx, async (event, data, audience) => {
      const seq = await insertChange(trx, event, data, audience);
      // A Change of one event: TypeScript cannot tie a generic `event` to its member of the union.
      const change = { event, data, audience, seq } as Change;
      afterCommit(trx, () => ctx.events.publish('change', change));
      return seq;
    }),
  );
}

async function insertChange<E extends ChangeEventName>(trx: Kysely<DB>, event: E, data: ChangeData<E>, audience: Audience): Promise<number> {
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
      // Who may read it: everyone (the feed's and a pin's changes), or only the users named.
      public: typeof audience === 'string' || 'pinId' in audience,
      user_ids: typeof audience === 'object' && 'userIds' in audience ? [...audience.userIds] : [],
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
