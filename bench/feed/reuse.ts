import { sql } from 'kysely';
import { migrateToLatest } from '../../db/migrate.ts';
import { openForSeeding } from './open.ts';

/**
 * A database a previous run seeded (`--keep-database`), brought to the latest schema (the
 * migrations this checkout adds since) and analyzed; returns a line saying what was done.
 */
export async function prepareDatabase(url: string): Promise<string> {
  const database = await openForSeeding({ kind: 'postgres', url });
  try {
    const migrated = await migrateToLatest(database.db);
    await sql`analyze`.execute(database.db);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pins`.execute(database.db);
    return `${rows[0]?.n ?? 0} pins; migrations applied: ${migrated.length ? migrated.join(', ') : 'none'}; analyzed`;
  } finally {
    await database.close();
  }
}
