import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** What each transaction opened by transaction() runs once it has committed, in order. */
const afterCommitOf = new WeakMap<Kysely<DB>, Array<() => void>>();

/**
 * Runs `work` in a transaction, then, once it has committed, what the work asked for with
 * afterCommit(), in order; after a rollback, none of it. When `db` is a transaction opened here,
 * `work` joins it, and its after-commit actions wait for that transaction's commit: a service
 * called by a caller that holds a transaction (an idempotent create, an import's item) commits,
 * and is announced, with the caller's work. A transaction opened otherwise cannot be joined: what
 * it would announce could be heard before it committed.
 */
export async function transaction<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    if (!afterCommitOf.has(db)) throw new Error('only a transaction opened by transaction() can be joined');
    return work(db);
  }
  const actions: Array<() => void> = [];
  const result = await db.transaction().execute((trx) => {
    afterCommitOf.set(trx, actions);
    return work(trx);
  });
  for (const action of actions) action();
  return result;
}

/** Runs `action` once the outermost transaction() that `trx` belongs to has committed. */
export function afterCommit(trx: Kysely<DB>, action: () => void): void {
  const actions = afterCommitOf.get(trx);
  if (!actions) throw new Error('afterCommit needs a transaction opened by transaction()');
  actions.push(action);
}
