import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { percentile } from './feed/load.ts';
import { readsTable, seedLine } from './feed/report.ts';
import { type FeedFigures, measureFeed } from './feed/scenarios.ts';
import { seedDatabase } from './feed/seed.ts';

// `npm run bench:visibility [-- --quick] [-- --pins 1000000 --private 20]`: what private pins cost
// the reads everyone makes (docs/who-sees-what.md). Seeds a Postgres database with a million pins
// (bench:feed's seed), measures the home feed, newest pages, search, the type-ahead, a tag's pins
// and related pins with every pin public; then makes a share of the pins private with SQL (as an
// operator's bulk change would, the derived tables brought along in bulk) and measures the same
// reads again, the same way, in the same run. Prints both and their ratio per read, against the
// target of 1.3×. A benchmark: it never fails on timings.

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    pins: { type: 'string' },
    private: { type: 'string', default: '20' },
    requests: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
  },
});
const quick = values.quick;
const pins = Number((values.pins ?? (quick ? '50000' : '1000000')).replaceAll('_', ''));
const share = Number(values.private);
if (!Number.isSafeInteger(pins) || pins < 1 || !(share > 0 && share < 100)) throw new Error('--pins must be a positive integer and --private a percentage');
const options = { pins, requests: Number(values.requests ?? (quick ? 400 : 2000)), concurrency: Number(values.concurrency), rounds: 4, deepPages: quick ? 50 : 200 };
const TARGET = 1.3;

delete process.env.REDIS_URL;
delete process.env.DATABASE_URL;
const appEnv = { AUTO_MIGRATE: 'false', AUTO_SEED: 'false', API_RATE_LIMIT_PER_IP: '1000000000', LOG_LEVEL: 'warn' };
const cleanups = cleanupsOnExit();
const log = (line: string) => console.log(line);

/**
 * Every `100 / share`-th pin made private in one statement per table: the per-row triggers that keep
 * the public counts (tags, users, words) are switched off for it and the counts recomputed in bulk.
 */
async function makePrivate(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const every = Math.round(100 / share);
    await client.query('begin');
    await client.query("set local session_replication_role = 'replica'");
    const { rowCount } = await client.query(`update pins set visibility = 'private' where id % ${every} = 0`);
    await client.query(`delete from pin_tags where pin_id % ${every} = 0`);
    await client.query('update tags set pin_count = coalesce((select count(*) from pin_tags where pin_tags.tag = tags.tag), 0)');
    await client.query(`
      update users set pin_count = counted.public, private_pin_count = counted.private
      from (select user_id, count(*) filter (where visibility = 'public')::int as public, count(*) filter (where visibility = 'private')::int as private from pins group by user_id) counted
      where counted.user_id = users.id`);
    await client.query('commit');
    await client.query('analyze pins');
    await client.query('analyze pin_tags');
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

async function measure(url: string, name: string): Promise<FeedFigures> {
  const app = await startAppProcess({ ...appEnv, DATABASE_URL: url }, { name });
  try {
    return await measureFeed(app.url, options);
  } finally {
    await app.stop();
  }
}

const started = performance.now();
log(`bench:visibility — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start; ${options.concurrency} concurrent clients, ${options.requests} requests per read`);
/** Seeds, measures all public, makes the share private, measures again; the database goes at the end. */
async function run(): Promise<{ seeded: string; before: FeedFigures; after: FeedFigures; madePrivate: number }> {
  try {
    log(`Seeding ${pins.toLocaleString('en-US')} pins…`);
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const seeded = seedLine('Postgres', await seedDatabase({ kind: 'postgres', url: database.url }, { pins }));
    log(seeded);
    log('Measuring with every pin public…');
    const before = await measure(database.url, 'app, all public');
    const madePrivate = await makePrivate(database.url);
    log(`Made ${madePrivate.toLocaleString('en-US')} pins private (${share} %). Measuring again…`);
    const after = await measure(database.url, `app, ${share} % private`);
    return { seeded, before, after, madePrivate };
  } finally {
    await cleanups.run();
  }
}

const { seeded, before, after, madePrivate } = await run();
const lines = ['', '=== bench:visibility results ===', seeded, ''];
{
  lines.push(...readsTable('Every pin public', before), '', ...readsTable(`${share} % of the pins private (${madePrivate.toLocaleString('en-US')})`, after), '');
  lines.push(`Cost of private pins per read (p50 and p99, ${share} % private ÷ all public; target ≤ ${TARGET}× for home, search and tag pages):`);
  for (const scenario of after.scenarios) {
    const base = before.scenarios.find((s) => s.name === scenario.name);
    if (!base) continue;
    const p50 = percentile(scenario.measured.latencies, 50) / percentile(base.measured.latencies, 50);
    const p99 = percentile(scenario.measured.latencies, 99) / percentile(base.measured.latencies, 99);
    const judged = ['shuffleFirst', 'shuffleDeep', 'search', 'tag'].includes(scenario.name);
    lines.push(`  ${scenario.label.padEnd(34)} ${p50.toFixed(2)}× p50  ${p99.toFixed(2)}× p99${judged ? (p50 <= TARGET ? '  ✓ within target' : '  ✗ over target') : ''}`);
  }
}
lines.push('  (errors after the switch are the 404s of private pins asked for by id — a single pin, its related pins — as anyone but their viewers gets.)');
lines.push(`Load average at the end: ${loadavg()[0]?.toFixed(1)}; total ${((performance.now() - started) / 1000).toFixed(0)} s.`);
log(lines.join('\n'));
