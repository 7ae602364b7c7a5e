import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** What a transaction opened by transaction() runs at its end: before its commit, and after it. */
interface Hooks {
  beforeCommit: Array<() => Promise<void>>;
  afterCommit: Array<() => void>;
}

const hooksOf = new WeakMap<Kysely<DB>, Hooks>();

/**
 * Runs `work` in a transaction: once the work is done, what it asked for with beforeCommit() (in
 * the transaction, in order), then the commit, then what it asked for with afterCommit(), in order;
 * after a rollback, none of the after-commit actions. When `db` is a transaction opened here,
 * `work` joins it, and its actions wait for that transaction's end: a service called by a caller
 * that holds a transaction (an idempotent create, an import's item) commits, and is announced,
 * with the caller's work. A transaction opened otherwise cannot be joined: what it would announce
 * could be heard before it committed.
 */
export async function transaction<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    if (!hooksOf.has(db)) throw new Error('only a transaction opened by transaction() can be joined');
    return work(db);
  }
  const hooks: Hooks = { beforeCommit: [], afterCommit: [] };
  const result = await db.transaction().execute(async (trx) => {
    hooksOf.set(trx, hooks);
    const value = await work(trx);
    for (const action of hooks.beforeCommit) await action();
    return value;
  });
  for (const action of hooks.afterCommit) action();
  return result;
}

function hooks(trx: Kysely<DB>): Hooks {
  const found = hooksOf.get(trx);
  if (!found) throw new Error('commit hooks need a transaction opened by transaction()');
  return found;
}

/** Runs `action` in `trx` after the outermost transaction()'s work, just before it commits. */
export function beforeCommit(trx: Kysely<DB>, action: () => Promise<void>): void {
  hooks(trx).beforeCommit.push(action);
}

/** Runs `action` once the outermost transaction() that `trx` belongs to has committed. */
export function afterCommit(trx: Kysely<DB>, action: () => void): void {
  hooks(trx).afterCommit.push(action);
}
