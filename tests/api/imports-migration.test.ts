import { Migrator, sql } from 'kysely';
import { expect, test } from 'vitest';
import { openDatabase } from '../../db/connect.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import { createTestDatabase } from '../support/database.ts';
import { testDatabaseKind } from '../support/server.ts';

// Migration 0021 (imports, import_items, imported_pins, import_boards) goes down and up again, with
// every migration after it.

const TABLES = ['imports', 'import_items', 'imported_pins', 'import_boards'];

test('migration 20261127_0021_imports goes down (its tables gone) and up again', async () => {
  const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
  const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' });
  const tables = async () => {
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_name in (${sql.join(TABLES)})`.execute(database.db);
    return rows.map((row) => row.name).sort();
  };
  try {
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await tables()).toEqual([...TABLES].sort());
    const down = await migrator.migrateTo('20261127_0015_change_redaction');
    expect(down.error).toBeUndefined();
    // Every later migration goes down first, newest first: their downs are run here too.
    const later = Object.keys(await migrationProvider.getMigrations())
      .filter((name) => name > '20261127_0015_change_redaction')
      .sort()
      .reverse();
    expect(later.at(-1)).toBe('20261127_0021_imports');
    expect(down.results?.map((result) => [result.migrationName, result.direction])).toEqual(later.map((name) => [name, 'Down']));
    expect(await tables()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await tables()).toEqual([...TABLES].sort());
  } finally {
    await database.close();
    await created?.drop();
  }
});
