import { type Kysely, Migrator } from 'kysely';
import { migrationProvider } from './migrations/index.ts';
import type { DB } from './schema.ts';

/** Applies every pending migration; throws (with the failing migration's name) on error. */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  // Migrations are numbered per change, and changes land in any order: a database that already
  // has a later-numbered one must still take an earlier number that arrives after it.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
