import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Db } from 'pg-boss';
import type { DB } from '../../db/schema.ts';

// pg-boss speaks to the database through `executeSql(text, values)`. Two ways in:

/**
 * pg-boss's own statements (schema install, fetching, settling, maintenance) on the app's pool: a
 * connection is taken per statement and given back at once, so the queue never holds one while a
 * handler runs, and in the embedded mode (one connection) it waits its turn like any request.
 *
 * Straight on `pg`, not through Kysely: pg-boss sends several statements in one query (its schema
 * install, and `BEGIN; SELECT pg_advisory_xact_lock(…); …; COMMIT` blocks) and reads the rows of
 * every statement, which node-postgres returns as an array of results and Kysely drops. A failed
 * statement inside such a block leaves no aborted transaction behind: `pool.query` discards a
 * connection whose query failed (on PGlite the socket server then rolls the transaction back).
 */
export function poolDatabase(pool: pg.Pool): Db {
  return {
    async executeSql(text, values) {
      const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(result) ? { rows: result.flatMap((r) => r.rows ?? []) } : { rows: result.rows };
    },
  };
}

/**
 * A job sent on the caller's Kysely handle — the pool, or the transaction a service runs in, so the
 * job commits or rolls back with the caller's writes. pg-boss's insert is one parameterised
 * statement, which Kysely runs as is on the transaction's connection.
 */
export function kyselyDatabase(db: Kysely<DB>): Db {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}
