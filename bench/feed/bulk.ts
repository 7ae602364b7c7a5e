import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

// Bulk loading as a database administrator would do it: on one connection, without per-row
// foreign-key checks and triggers, and with the secondary indexes built once at the end instead
// of maintained row by row (which is what makes a million random index inserts slow). Whatever
// indexes and unique constraints the migrations made are read from the catalog, dropped and
// recreated with the same definitions and names, so this keeps working as the schema moves on.

interface SecondaryIndex {
  table: string;
  index: string;
  indexdef: string;
  /** Set when the index backs a unique constraint: it is dropped and re-added as that constraint. */
  constraint: string | null;
  condef: string | null;
}

/**
 * Runs `load` on one connection with foreign-key checks and triggers off and the secondary indexes
 * of `tables` dropped; rebuilds the indexes afterwards (also when `load` fails, so the schema is
 * never left without them). `onIndexes` gets the seconds the rebuild took.
 */
export async function bulkLoad<T>(db: Kysely<DB>, tables: string[], load: (db: Kysely<DB>) => Promise<T>, onIndexes: (seconds: number) => void): Promise<T> {
  return db.connection().execute(async (conn) => {
    const { rows: indexes } = await sql<SecondaryIndex>`
      select t.relname as "table", i.relname as "index", pg_get_indexdef(i.oid) as indexdef,
        c.conname as "constraint", pg_get_constraintdef(c.oid) as condef
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
      where t.relname = any(${tables}::text[]) and t.relnamespace = 'public'::regnamespace and not x.indisprimary`.execute(conn);
    for (const index of indexes) {
      if (index.constraint) await sql`alter table ${sql.table(index.table)} drop constraint ${sql.id(index.constraint)}`.execute(conn);
      else await sql`drop index ${sql.id(index.index)}`.execute(conn);
    }
    // The rows are consistent by construction (every user and pin they name exists, counts are
    // computed with the rows they count): skip the per-row checks and triggers, on this connection
    // only. Needs a superuser, as the local Postgres and PGlite are.
    await sql`set session_replication_role = replica`.execute(conn);
    try {
      return await load(conn);
    } finally {
      await sql`set session_replication_role = default`.execute(conn);
      const started = performance.now();
      for (const index of indexes) {
        if (index.constraint && index.condef) {
          await sql`alter table ${sql.table(index.table)} add constraint ${sql.id(index.constraint)} ${sql.raw(index.condef)}`.execute(conn);
        } else {
          await sql.raw(index.indexdef).execute(conn);
        }
      }
      onIndexes((performance.now() - started) / 1000);
    }
  });
}
