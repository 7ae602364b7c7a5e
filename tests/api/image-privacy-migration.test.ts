import { Migrator, sql } from 'kysely';
import { expect, test } from 'vitest';
import { openDatabase } from '../../db/connect.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import { createTestDatabase } from '../support/database.ts';
import { testDatabaseKind } from '../support/server.ts';

// Migration 20261127_0011_image_privacy: images stored before it are marked as still carrying
// their metadata (the strip job's work list), new ones not; a pin may hold an empty image_url only
// with the refused address kept beside it; and down gives a refused pin its address back.

const SHA = 'ab'.repeat(32);

test('migration 0011 marks older images unstripped, allows an empty image_url only with a refused address, and goes down again', async () => {
  const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
  const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' });
  try {
    const db = database.db;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('20261126_0009_image_references')).error).toBeUndefined();
    await sql`insert into users (email, username, username_skeleton, password_hash) values ('m@example.test', 'migrant', 'migrant', 'x')`.execute(db);
    await sql`insert into images (sha256, format, bytes, width, height, placeholder) values (${SHA}, 'jpeg', 10, 1, 1, 'x')`.execute(db);
    await sql`insert into pins (user_id, title, image_url, description) select id, 'old', 'http://10.0.0.1/a.png', '' from users`.execute(db);

    expect((await migrator.migrateTo('20261127_0011_image_privacy')).error).toBeUndefined();
    const old = await db.selectFrom('images').select(['metadata_stripped', 'source_sha256']).where('sha256', '=', SHA).executeTakeFirstOrThrow();
    expect(old).toEqual({ metadata_stripped: false, source_sha256: null });
    await sql`insert into images (sha256, format, bytes, width, height, placeholder) values (${'cd'.repeat(32)}, 'png', 10, 1, 1, 'x')`.execute(db);
    expect((await db.selectFrom('images').select('metadata_stripped').where('sha256', '=', 'cd'.repeat(32)).executeTakeFirstOrThrow()).metadata_stripped).toBe(true);

    // An empty address needs the refused one beside it.
    const refuse = sql`update pins set image_url = '', refused_image_url = image_url`;
    const bare = await sql`update pins set image_url = ''`.execute(db).then(
      () => undefined,
      (error: unknown) => error as { code?: string; constraint?: string },
    );
    expect(bare).toMatchObject({ code: '23514', constraint: 'pins_image_url_length' });
    await refuse.execute(db);
    expect(await db.selectFrom('pins').select(['image_url', 'refused_image_url']).executeTakeFirstOrThrow()).toEqual({ image_url: '', refused_image_url: 'http://10.0.0.1/a.png' });

    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.migrationName)).toEqual(['20261127_0011_image_privacy']);
    const { rows } = await sql<{ image_url: string }>`select image_url from pins`.execute(db);
    expect(rows).toEqual([{ image_url: 'http://10.0.0.1/a.png' }]);
    const { rows: columns } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where (table_name = 'images' and column_name in ('metadata_stripped', 'source_sha256')) or (table_name = 'pins' and column_name = 'refused_image_url')`.execute(db);
    expect(columns).toEqual([]);
    // And up once more, cleanly.
    expect((await migrator.migrateTo('20261127_0011_image_privacy')).error).toBeUndefined();
  } finally {
    await database.close();
    await created?.drop();
  }
});
