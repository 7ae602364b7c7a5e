import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import * as statementCounts from '../db/migrations/20261129_0027_statement_counts.ts';
import type { DB } from '../db/schema.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';

// `npm run bench:bulk-insert [-- --rows 200000] [-- --baseline-rows 8000]`: what one SQL statement
// inserting many pins for one user costs now that the counters are kept per statement
// (docs/data-model.md, "Counters are kept per statement"). On Postgres, in a new database:
//   1. `insert into pins … select … from generate_series(1, rows)` for one user, a fifth of the
//      pins private and most with #tags, timed (seconds, rows/s) against the target of 60 s for
//      200,000 rows; then the same pins put on one board in one statement, and deleted in one
//      statement (their entries, tags and favorites go by cascade), timed too;
//   2. the same three statements at `baseline-rows` pins on two more new databases: one with the
//      per-row triggers that migration 0027 replaced (its down), one as migrated; and their ratio;
//   3. every counter against a recount, after each run.
// A benchmark: it prints figures and verdicts and never fails on them.

const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' }, 'baseline-rows': { type: 'string', default: '8000' } } });
const ROWS = Number(values.rows.replaceAll('_', ''));
const BASELINE_ROWS = Number(values['baseline-rows'].replaceAll('_', ''));
if (!Number.isSafeInteger(ROWS) || ROWS < 1 || !Number.isSafeInteger(BASELINE_ROWS) || BASELINE_ROWS < 1) throw new Error('--rows and --baseline-rows must be positive integers');
const TARGET_SECONDS = 60;
const TARGET_ROWS = 200_000;

const cleanups = cleanupsOnExit();
const log = (line: string) => console.log(line);

type Db = Kysely<DB>;

async function newDatabase(triggers: 'statement' | 'per-row'): Promise<Db> {
  const created = await createTestDatabase();
  cleanups.push(() => created.drop());
  const database = await openDatabase({ kind: 'postgres', url: created.url }, { statementTimeoutMs: 3_600_000 });
  cleanups.push(() => database.close());
  await migrateToLatest(database.db);
  if (triggers === 'per-row') await statementCounts.down(database.db);
  await sql`insert into users (email, username, username_skeleton, password_hash) values ('bulk@example.test', 'bulk', 'bulk', 'x')`.execute(database.db);
  await sql`insert into boards (user_id, name) select id, 'Everything' from users where username = 'bulk'`.execute(database.db);
  return database.db;
}

interface Timings {
  insert: number;
  board: number;
  remove: number;
  /** Counters that differ from a recount after the insert and the board, and after the deletion. */
  drift: string[];
}

async function seconds(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
}

/** Every counter that differs from a recount of its rows (empty: all equal). */
async function drift(db: Db): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`
    select 'users ' || u.id || ': pin_count ' || u.pin_count || '/' || coalesce(c.public, 0) || ', private_pin_count ' || u.private_pin_count || '/' || coalesce(c.private, 0) as line
    from users u left join (
      select user_id, count(*) filter (where visibility = 'public')::int as public, count(*) filter (where visibility = 'private')::int as private from pins group by user_id
    ) c on c.user_id = u.id
    where u.pin_count <> coalesce(c.public, 0) or u.private_pin_count <> coalesce(c.private, 0)
    union all
    select 'boards ' || b.id || ': pin_count ' || b.pin_count || '/' || coalesce(c.n, 0) || ', public_pin_count ' || b.public_pin_count || '/' || coalesce(c.public, 0)
    from boards b left join (
      select bp.board_id, count(*)::int as n, count(*) filter (where p.visibility = 'public')::int as public from board_pins bp join pins p on p.id = bp.pin_id group by bp.board_id
    ) c on c.board_id = b.id
    where b.pin_count <> coalesce(c.n, 0) or b.public_pin_count <> coalesce(c.public, 0)
    union all
    select 'tags ' || t.tag || ': pin_count ' || t.pin_count || '/' || coalesce(c.n, 0)
    from tags t left join (select tag, count(*)::int as n from pin_tags group by tag) c on c.tag = t.tag
    where t.pin_count <> coalesce(c.n, 0)
    union all
    select 'pin_tags: ' || count(*) || ' rows differ from the public pins'' tags'
    from (
      (select distinct t, p.id from pins p, unnest(p.tags) as t where p.visibility = 'public' except select tag, pin_id from pin_tags)
      union all
      (select tag, pin_id from pin_tags except select distinct t, p.id from pins p, unnest(p.tags) as t where p.visibility = 'public')
    ) x
    having count(*) > 0
    union all
    select 'pins ' || p.id || ': likes_count ' || p.likes_count || '/' || coalesce(c.n, 0)
    from pins p left join (select pin_id, count(*)::int as n from favorites group by pin_id) c on c.pin_id = p.id
    where p.likes_count <> coalesce(c.n, 0)`.execute(db);
  return rows.map((row) => row.line);
}

/** One statement of `rows` pins for the one user: a fifth private, four in five with #tags. */
const insertPins = (rows: number) => sql`
  insert into pins (user_id, title, image_url, description, tags, visibility)
  select (select id from users where username = 'bulk'), 'Bulk pin ' || g, 'https://images.test/' || g || '.jpg',
    case g % 5
      when 0 then 'Sunset over the #beach and the #sea, day ' || g
      when 1 then 'A #travel diary: #food #market'
      when 2 then 'Morning light on the #sea'
      when 3 then '#art of the street'
      else 'Nothing to tag here'
    end,
    case g % 5
      when 0 then array['beach', 'sea']
      when 1 then array['travel', 'food', 'market']
      when 2 then array['sea']
      when 3 then array['art']
      else '{}'::text[]
    end,
    case when g % 10 in (1, 6) then 'private' else 'public' end
  from generate_series(1, ${rows}::integer) as g`;

async function run(db: Db, rows: number): Promise<Timings> {
  const insert = await seconds(() => insertPins(rows).execute(db));
  const board = await seconds(() => sql`insert into board_pins (board_id, pin_id) select (select id from boards where name = 'Everything'), id from pins`.execute(db));
  const before = await drift(db);
  const remove = await seconds(() => sql`delete from pins`.execute(db));
  return { insert, board, remove, drift: [...before, ...(await drift(db)).map((line) => `after the deletion: ${line}`)] };
}

const fmt = (s: number) => `${s.toFixed(s < 10 ? 2 : 1)} s`;
const rate = (rows: number, s: number) => `${Math.round(rows / s).toLocaleString('en-US')} rows/s`;
const counted = (d: string[]) => (d.length === 0 ? 'every counter equals a recount' : `COUNTERS DIFFER FROM A RECOUNT: ${d.slice(0, 10).join('; ')}${d.length > 10 ? ` (+${d.length - 10})` : ''}`);

const started = performance.now();
log(`bench:bulk-insert — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start`);
try {
  log(`Statement triggers, ${ROWS.toLocaleString('en-US')} pins in one statement…`);
  const big = await run(await newDatabase('statement'), ROWS);
  log(`Per-row triggers (0027's down), ${BASELINE_ROWS.toLocaleString('en-US')} pins…`);
  const old = await run(await newDatabase('per-row'), BASELINE_ROWS);
  log(`Statement triggers, ${BASELINE_ROWS.toLocaleString('en-US')} pins…`);
  const fresh = await run(await newDatabase('statement'), BASELINE_ROWS);

  const projected = (big.insert * TARGET_ROWS) / ROWS;
  const lines = ['', '=== bench:bulk-insert results (Postgres) ==='];
  lines.push(`${ROWS.toLocaleString('en-US')} pins of one user in one INSERT … SELECT (20 % private, 80 % with #tags):`);
  lines.push(`  insert            ${fmt(big.insert).padStart(9)}  ${rate(ROWS, big.insert)}`);
  lines.push(`  onto one board    ${fmt(big.board).padStart(9)}  ${rate(ROWS, big.board)}`);
  lines.push(`  delete (cascades) ${fmt(big.remove).padStart(9)}  ${rate(ROWS, big.remove)}`);
  lines.push(`  ${counted(big.drift)}`);
  const verdict = projected <= TARGET_SECONDS ? 'met' : 'NOT met';
  lines.push(
    `target ≤ ${TARGET_SECONDS} s for ${TARGET_ROWS.toLocaleString('en-US')} rows: ${verdict}` +
      (ROWS === TARGET_ROWS ? ` (${fmt(big.insert)})` : ` (${fmt(projected)} projected linearly from ${ROWS.toLocaleString('en-US')} rows)`),
  );
  lines.push('');
  lines.push(`${BASELINE_ROWS.toLocaleString('en-US')} pins, per-row triggers (before 0027) vs statement triggers (now):`);
  for (const [name, label] of [
    ['insert', 'insert'],
    ['board', 'onto one board'],
    ['remove', 'delete (cascades)'],
  ] as const) {
    lines.push(`  ${label.padEnd(18)} ${fmt(old[name]).padStart(9)} vs ${fmt(fresh[name]).padStart(9)}  ${(old[name] / fresh[name]).toFixed(1)}× faster`);
  }
  lines.push(`  per-row triggers: ${counted(old.drift)}`);
  lines.push(`  statement triggers: ${counted(fresh.drift)}`);
  lines.push(`Load average at the end: ${loadavg()[0]?.toFixed(1)}; total ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  log(lines.join('\n'));
} finally {
  await cleanups.run();
}
