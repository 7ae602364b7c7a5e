import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseTarget } from '../../db/connect.ts';
import type { DB } from '../../db/schema.ts';

export interface SeedingDatabase {
  db: Kysely<DB>;
  close(): Promise<void>;
}

// Bulk statements run for tens of seconds: no statement timeout while seeding.
const NO_TIMEOUT_MS = 3_600_000;

/**
 * The database to seed, on one connection, Postgres or a PGlite folder. Its close shuts PGlite down
 * before the app process opens the same folder.
 */
export async function openForSeeding(target: DatabaseTarget): Promise<SeedingDatabase> {
  const database = await openDatabase(target, { statementTimeoutMs: NO_TIMEOUT_MS, poolMax: 1 });
  return { db: database.db, close: () => database.close() };
}
