import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { DB } from '../db/schema.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { addFavorite, removeFavorite } from '../backend/favorites/favorites.service.ts';
import { settleLikesJob } from '../backend/favorites/likes.ts';
import type { ServiceContext } from '../backend/context.ts';
import type { AppJobs } from '../backend/job-catalog.ts';
import type { JobSender } from '../backend/jobs/define.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';

// `npm run bench:counters [-- --workers 32] [-- --pairs 40]`: favorites of one hot pin, now that
// its likes are delta rows (docs/data-model.md, "Hot counters are deltas"). On Postgres, in a new
// database seeded with SQL (one user per worker, one pin), each worker on its own connection runs
// `pairs` favorite + unfavorite pairs of the hot pin, each a transaction committed (synchronous
// commit, as configured), all workers at once; pairs/s for each way, in the same run:
//   - service: the app's addFavorite / removeFavorite (write(): the change log included; the
//     settle job a deferred change sends is counted, and run once at the end);
//   - functions: `select favorite_add(…)` / `favorite_remove(…)` as raw SQL (what the service calls);
//   - raw + deltas: `insert into favorites …` / `delete from favorites …`, the counting trigger on;
//   - raw, no count: the same statements with the counting trigger off (the floor);
//   - raw + hot row: the same, trigger off, plus `update pins set likes_count = likes_count ± 1`
//     in each transaction: the row lock held to the commit, as every counter was before 0031.
// After each way the pin's count (folded + pending) is checked against count(*) of its favorites.
// A benchmark: it prints figures and never fails on them.

const { values } = parseArgs({ options: { workers: { type: 'string', default: '32' }, pairs: { type: 'string', default: '40' } } });
const WORKERS = Number(values.workers);
const PAIRS = Number(values.pairs);
if (!Number.isSafeInteger(WORKERS) || WORKERS < 1 || WORKERS > 80 || !Number.isSafeInteger(PAIRS) || PAIRS < 1) throw new Error('--workers (1–80) and --pairs must be positive integers');

const cleanups = cleanupsOnExit();
const log = (line: string) => console.log(line);
const COUNT_TRIGGERS = ['favorites_counts_inserted', 'favorites_counts_deleted'];

type Pair = (worker: number) => Promise<void>;

async function timed(name: string, pair: Pair): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let i = 0; i < PAIRS; i += 1) await pair(worker);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rate = (WORKERS * PAIRS) / seconds;
  log(`  ${name.padEnd(18)} ${String(WORKERS * PAIRS).padStart(6)} pairs in ${seconds.toFixed(2).padStart(6)} s: ${rate.toFixed(0).padStart(6)} pairs/s`);
  return rate;
}

async function inTransaction(client: pg.Client, statements: Array<[string, unknown[]]>): Promise<pg.QueryResultRow | undefined> {
  await client.query('begin');
  let first: pg.QueryResultRow | undefined;
  for (const [text, params] of statements) {
    const { rows } = await client.query(text, params);
    first ??= rows[0];
  }
  await client.query('commit');
  return first;
}

async function checkCount(db: Kysely<DB>, pinId: number, way: string): Promise<void> {
  const { rows } = await sql<{ stored: number; counted: number; pending: number }>`
    select (p.likes_count + coalesce((select sum(delta) from pin_like_deltas where pin_id = p.id), 0))::int as stored,
      (select count(*)::int from favorites where pin_id = p.id) as counted,
      (select count(*)::int from pin_like_deltas where pin_id = p.id) as pending
    from pins p where p.id = ${pinId}`.execute(db);
  const row = rows[0];
  log(`    ${way}: count ${row?.stored} vs ${row?.counted} favorites rows (${row?.stored === row?.counted ? 'exact' : 'WRONG'}), ${row?.pending} deltas pending`);
}

async function main(): Promise<void> {
  const created = await createTestDatabase();
  cleanups.push(() => created.drop());
  const database = await openDatabase({ kind: 'postgres', url: created.url }, { statementTimeoutMs: 600_000, poolMax: WORKERS + 2 });
  cleanups.push(() => database.close());
  const db = database.db;
  await migrateToLatest(db);
  await sql`
    insert into users (email, username, username_skeleton, password_hash)
    select 'fan' || n || '@bench.test', 'fan' || n, 'fan' || n, 'x' from generate_series(1, ${WORKERS}) as n`.execute(db);
  const {
    rows: [pin],
  } = await sql<{ id: number }>`insert into pins (user_id, title, image_url, description) select min(id), 'hot', 'https://a.test/x.png', '' from users returning id`.execute(db);
  const pinId = pin?.id ?? 0;
  const { rows: users } = await sql<{ id: number }>`select id from users order by id`.execute(db);
  const userOf = (worker: number) => users[worker]?.id ?? 0;

  const clients = Array.from({ length: WORKERS }, () => new pg.Client({ connectionString: created.url }));
  await Promise.all(clients.map((c) => c.connect()));
  cleanups.push(() => Promise.all(clients.map((c) => c.end())).then(() => undefined));
  const client = (worker: number) => clients[worker] as pg.Client;

  log(`bench:counters — Postgres, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}; ${WORKERS} workers × ${PAIRS} favorite+unfavorite pairs of one pin`);
  const rates: Record<string, number> = {};

  let deferred = 0;
  const jobs: JobSender<AppJobs> = {
    send: async (_db, name) => {
      if (name === 'pins.likes-settle') deferred += 1;
      return 'bench';
    },
    pending: async () => 0,
  };
  const ctx: ServiceContext = { db, events: { publish: () => undefined }, jobs, fetching: { allow: { cidrs: [], ports: [] }, pendingPerUser: 1 } };
  rates.service = await timed('service', async (worker) => {
    const favorite = await addFavorite(ctx, userOf(worker), pinId);
    if (favorite) await removeFavorite(ctx, userOf(worker), favorite.id);
  });
  log(`    ${deferred} of ${WORKERS * PAIRS * 2} changes deferred to the settle job`);
  await settleLikesJob(ctx, pinId);
  await checkCount(db, pinId, 'service');

  rates.functions = await timed('functions', async (worker) => {
    const added = await inTransaction(client(worker), [['select favorite_id from favorite_add($1, $2)', [userOf(worker), pinId]]]);
    await inTransaction(client(worker), [['select outcome from favorite_remove($1, $2)', [userOf(worker), added?.favorite_id]]]);
  });
  await checkCount(db, pinId, 'functions');

  const raw =
    (hotRow: boolean): Pair =>
    async (worker) => {
      const bump = (sign: string): Array<[string, unknown[]]> => (hotRow ? [[`update pins set likes_count = likes_count ${sign} 1 where id = $1`, [pinId]]] : []);
      const added = await inTransaction(client(worker), [['insert into favorites (user_id, pin_id) values ($1, $2) returning id', [userOf(worker), pinId]], ...bump('+')]);
      await inTransaction(client(worker), [['delete from favorites where id = $1', [added?.id]], ...bump('-')]);
    };
  rates['raw + deltas'] = await timed('raw + deltas', raw(false));
  await checkCount(db, pinId, 'raw + deltas');
  for (const name of COUNT_TRIGGERS) await sql`alter table favorites disable trigger ${sql.id(name)}`.execute(db);
  rates['raw, no count'] = await timed('raw, no count', raw(false));
  rates['raw + hot row'] = await timed('raw + hot row', raw(true));
  for (const name of COUNT_TRIGGERS) await sql`alter table favorites enable trigger ${sql.id(name)}`.execute(db);
  await checkCount(db, pinId, 'raw + hot row');

  const floor = rates['raw, no count'] ?? 1;
  log(
    `  against the floor (no count): deltas ${(((rates['raw + deltas'] ?? 0) / floor) * 100).toFixed(0)} %, hot row ${(((rates['raw + hot row'] ?? 0) / floor) * 100).toFixed(0)} %; deltas / hot row ${((rates['raw + deltas'] ?? 0) / (rates['raw + hot row'] ?? 1)).toFixed(2)}×`,
  );
}

await main().finally(() => cleanups.run());
