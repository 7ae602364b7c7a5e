import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import { signUpUser } from '../support/client.ts';
import { createTestDatabase } from '../support/database.ts';
import { eventually } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Migration 0031 (docs/data-model.md, "Hot counters are deltas"): writers of one pin's likes, or of
// one tag's count, do not wait for each other's commit. Each transaction below is held open after
// its statement, on its own connection: had the statements queued on the counted row, the second
// would never complete while the first is open, and `eventually` would time out. Postgres only:
// PGlite has one connection, so nothing there can be concurrent.
const WRITERS = 50;

interface LikesRow {
  outcome: string;
  likes_count: number;
  likes_version: number;
  settled: boolean;
}

async function withConnections<T>(url: string, n: number, use: (clients: pg.Client[]) => Promise<T>): Promise<T> {
  const clients = Array.from({ length: n }, () => new pg.Client({ connectionString: url }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    return await use(clients);
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}

/** Runs `statement` in an open transaction on each client; resolves with each answer once every one has completed, none committed. */
async function allWhileOpen<R extends pg.QueryResultRow>(clients: pg.Client[], statement: (i: number) => [string, unknown[]]): Promise<R[]> {
  let completed = 0;
  const answers = clients.map(async (client, i) => {
    await client.query('begin');
    const [text, values] = statement(i);
    const { rows } = await client.query<R>(text, values);
    completed += 1;
    return rows[0] as R;
  });
  // Every statement completes while all 50 transactions are still open.
  await eventually(
    async () => completed,
    (n) => n === clients.length,
    { boundMs: 60_000 },
  );
  return Promise.all(answers);
}

// Held-open transactions on separate connections: Postgres only (PGlite has one connection).
if (testDatabaseKind() === 'postgres')
  describe('hot counters without a hot row (Postgres)', () => {
    test(`${WRITERS} favorites of one pin, each transaction held open, do not wait for one another; the count is exact, versions distinct`, { timeout: 180_000 }, async () => {
      const created = await createTestDatabase();
      const database = await openDatabase({ kind: 'postgres', url: created.url });
      try {
        await migrateToLatest(database.db);
        const db = database.db;
        await sql`
        insert into users (email, username, username_skeleton, password_hash)
        select 'fan' || n || '@x.test', 'fan' || n, 'fan' || n, 'x' from generate_series(1, ${WRITERS}) as n`.execute(db);
        const {
          rows: [pin],
        } = await sql<{ id: number }>`
        insert into pins (user_id, title, image_url, description) select min(id), 'hot', 'https://a.test/x.png', '' from users returning id`.execute(db);
        const pinId = pin?.id ?? 0;
        const { rows: users } = await sql<{ id: number }>`select id from users order by id`.execute(db);

        const events = await withConnections(created.url, WRITERS, async (clients) => {
          const started = performance.now();
          const answers = await allWhileOpen<LikesRow>(clients, (i) => ['select * from favorite_add($1, $2)', [users[i]?.id, pinId]]);
          console.log(
            `${WRITERS} favorites completed with every transaction open: ${(performance.now() - started).toFixed(0)} ms; settled in their transaction: ${answers.filter((a) => a.settled).length}`,
          );
          expect(answers.every((a) => a.outcome === 'added')).toBe(true);
          await Promise.all(clients.map((c) => c.query('commit')));
          // What the service does: a settled change announces its own count and version; a deferred one
          // sends pins.likes-settle, which runs after its commit (here: all at once, one connection each).
          const settles = await Promise.all(answers.map(async (a, i) => (a.settled ? a : (await clients[i]?.query<LikesRow>('select * from pin_likes_settle($1)', [pinId]))?.rows[0])));
          return settles.map((e) => ({ count: e?.likes_count, version: e?.likes_version }));
        });

        expect(new Set(events.map((e) => e.version)).size).toBe(WRITERS);
        const latest = events.reduce((a, b) => ((b.version ?? 0) > (a.version ?? 0) ? b : a));
        expect(latest).toEqual({ count: WRITERS, version: WRITERS });
        const { rows } = await sql<{ likes_count: number; pending: number }>`
        select likes_count, (select count(*)::int from pin_like_deltas) as pending from pins where id = ${pinId}`.execute(db);
        expect(rows).toEqual([{ likes_count: WRITERS, pending: 0 }]);
      } finally {
        await database.close();
        await created.drop();
      }
    });

    test(`${WRITERS} pins with one popular tag, each transaction held open, do not wait for one another; the tag's count is exact`, { timeout: 180_000 }, async () => {
      const created = await createTestDatabase();
      const database = await openDatabase({ kind: 'postgres', url: created.url });
      try {
        await migrateToLatest(database.db);
        const db = database.db;
        // One user each (a user's own counts are theirs alone), and a title whose words are known: a
        // word, like a tag, first used by two statements at once makes them wait for each other, once.
        await sql`
        insert into users (email, username, username_skeleton, password_hash)
        select 'tagger' || n || '@x.test', 'tagger' || n, 'tagger' || n, 'x' from generate_series(1, ${WRITERS}) as n`.execute(db);
        await sql`insert into pins (user_id, title, image_url, description, tags) select min(id), 'popular pin', 'https://a.test/x.png', '', array['popular'] from users`.execute(db);
        const { rows: users } = await sql<{ id: number }>`select id from users order by id`.execute(db);

        await withConnections(created.url, WRITERS, async (clients) => {
          const started = performance.now();
          await allWhileOpen(clients, (i) => [
            `insert into pins (user_id, title, image_url, description, tags) values ($1, 'popular pin', 'https://a.test/x.png', '', array['popular']) returning id`,
            [users[i]?.id],
          ]);
          console.log(`${WRITERS} tagged pins inserted with every transaction open: ${(performance.now() - started).toFixed(0)} ms`);
          await Promise.all(clients.map((c) => c.query('commit')));
        });

        const count = sql<{ pin_count: number; pending: number }>`
        select (pin_count + coalesce((select sum(delta) from tag_count_deltas where tag = 'popular'), 0))::int as pin_count,
          (select count(*)::int from tag_count_deltas where tag = 'popular') as pending
        from tags where tag = 'popular'`;
        expect((await count.execute(db)).rows[0]?.pin_count).toBe(WRITERS + 1);
        // The fold job leaves nothing pending once no writer holds the row.
        await sql`select counters_fold(1000)`.execute(db);
        expect((await count.execute(db)).rows).toEqual([{ pin_count: WRITERS + 1, pending: 0 }]);
      } finally {
        await database.close();
        await created.drop();
      }
    });

    describe('through the API', () => {
      const server = useTestServer();

      test(`${WRITERS} people favoriting one pin at once: the pin:likes events' versions are distinct and the highest carries ${WRITERS}`, { timeout: 180_000 }, async () => {
        const { client: owner } = await signUpUser(server.url, 'hotowner');
        const pin = await newPin(owner);
        const fans = await Promise.all(Array.from({ length: WRITERS }, () => signUpUser(server.url, 'hotfan')));
        const added = await Promise.all(fans.map(({ client }) => client.post<Favorite>('/api/favorites/', { pin_id: pin.id })));
        expect(added.every((r) => r.status === 201)).toBe(true);
        // Deferred changes are announced by their settle jobs once committed.
        const db = server.server.database.db;
        const likes = await eventually(
          async () =>
            (
              await sql<{ count: number; version: number }>`
            select (data->>'likesCount')::int as count, (data->>'version')::int as version from changes
            where event = 'pin:likes' and (data->>'pinId')::int = ${pin.id}`.execute(db)
            ).rows,
          (rows) => rows.length === WRITERS,
        );
        expect(new Set(likes.map((e) => e.version)).size).toBe(WRITERS);
        expect(likes.reduce((a, b) => (b.version > a.version ? b : a))).toEqual({ count: WRITERS, version: WRITERS });
        expect((await owner.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(WRITERS);
      });
    });
  });

test('0031 goes down to the functions and adders of 0006 and 0027, and up again (0033 with it)', { timeout: 120_000 }, async () => {
  const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
  const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' });
  try {
    const db = database.db;
    await migrateToLatest(db);
    await sql`insert into users (email, username, username_skeleton, password_hash) values ('a@x.test', 'aaaa', 'aaaa', 'x'), ('b@x.test', 'bbbb', 'bbbb', 'x')`.execute(db);
    await sql`insert into pins (user_id, title, image_url, description, tags) select min(id), 't', 'https://a.test/x.png', '', array['x'] from users`.execute(db);
    await sql`select favorite_add(id, (select id from pins)) from users`.execute(db);
    const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
    // Down past 0031 (the change log's 0033, after it, goes down and up with it).
    expect((await migrator.migrateTo('20261129_0030_pin_merges')).results?.map((r) => `${r.migrationName} ${r.status}`)).toEqual([
      '20261129_0033_change_positions Success',
      '20261129_0031_counter_deltas Success',
    ]);
    expect((await sql`select likes_count, likes_version from pins`.execute(db)).rows).toEqual([{ likes_count: 2, likes_version: 2 }]);
    await sql`select favorite_remove(f.user_id, f.id) from favorites as f`.execute(db);
    expect((await sql`select likes_count from pins`.execute(db)).rows).toEqual([{ likes_count: 0 }]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const { rows } = await sql<{
      outcome: string;
      likes_count: number;
      settled: boolean;
    }>`select f.* from users as u cross join lateral favorite_add(u.id, (select id from pins)) as f order by u.id`.execute(db);
    expect(rows.map((r) => `${r.outcome} ${r.likes_count} ${r.settled}`).sort()).toEqual(['added 1 true', 'added 2 true']);
  } finally {
    await database.close();
    await created?.drop();
  }
});
