import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { type AppProcess, startAppProcess } from '../scripts/lib/processes.ts';
import { ensureClientBuilt } from '../scripts/lib/browser.ts';
import { type ScrollResult, scrollHome } from './feed/browser.ts';
import { pageVerdicts, readsTable, ratios, scrollTable, scrollVerdicts, seedLine } from './feed/report.ts';
import { type FeedFigures, measureFeed } from './feed/scenarios.ts';
import { seedDatabase } from './feed/seed.ts';
import { explainRequest } from './feed/explain.ts';
import { searchVerdicts, slowestSearchRead } from './feed/search-report.ts';
import { measureSearch, searchTable } from './feed/search-only.ts';
import { prepareDatabase } from './feed/reuse.ts';

// `npm run bench:feed [-- --quick] [-- --pins 1000000 --pglite-pins 100000 …]`: lists at scale.
// Seeds a fresh Postgres database with a million pins (favorites, comments) and a PGlite folder
// with a hundred thousand, serves each with the real app in its own process, and measures over
// loopback: a single-pin read, the first and a deep page of the newest and shuffle orders, the
// page size, and search, the type-ahead, a tag's pins and related pins (with the query plan of the
// slowest of those on Postgres); then scrolls the Postgres-backed home page in Chromium, sampling mounted cards and JS
// heap. Prints a table and one verdict per target. A benchmark: it never fails on timings.
// `--search-only --skip-pglite --keep-database` seeds once and measures the search reads alone (split
// by the shape of the query) beside a single-pin read; `--database URL` measures again on that
// database without seeding.

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    pins: { type: 'string' },
    'pglite-pins': { type: 'string' },
    requests: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '4' },
    'deep-pages': { type: 'string', default: '200' },
    'scroll-pins': { type: 'string', default: '2000' },
    'scroll-every': { type: 'string', default: '250' },
    'scroll-seconds': { type: 'string', default: '180' },
    'skip-pglite': { type: 'boolean', default: false },
    'skip-browser': { type: 'boolean', default: false },
    // Reuse a seeded database (its URL; migrated to the latest schema and analyzed, not seeded), and
    // keep the one this run seeds (its URL is printed): the seed of a million pins takes minutes.
    database: { type: 'string' },
    'keep-database': { type: 'boolean', default: false },
    // Only the search reads beside a single-pin read (bench/feed/search-only.ts); no browser.
    'search-only': { type: 'boolean', default: false },
  },
});
const count = (value: string | undefined, fallback: number) => {
  const n = value === undefined ? fallback : Number(value.replaceAll('_', ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`not a positive integer: ${value}`);
  return n;
};
const quick = values.quick;
const options = {
  pins: count(values.pins, quick ? 50_000 : 1_000_000),
  pglitePins: count(values['pglite-pins'], quick ? 10_000 : 100_000),
  requests: count(values.requests, quick ? 400 : 2000),
  concurrency: count(values.concurrency, 4),
  rounds: count(values.rounds, 4),
  deepPages: count(values['deep-pages'], 200),
  scroll: { target: count(values['scroll-pins'], 2000), every: count(values['scroll-every'], 250), seconds: count(values['scroll-seconds'], 180), stallSeconds: 15 },
};

// The app runs without Redis (sessions and rate limits in memory) and on the database given here only.
delete process.env.REDIS_URL;
delete process.env.DATABASE_URL;
const appEnv = { AUTO_MIGRATE: 'false', AUTO_SEED: 'false', API_RATE_LIMIT_PER_IP: '1000000000', LOG_LEVEL: 'warn' };

const cleanups = cleanupsOnExit();
const cleanUp = () => cleanups.run();

async function startApp(env: Record<string, string>, name: string): Promise<AppProcess> {
  const app = await startAppProcess({ ...appEnv, ...env }, { name });
  cleanups.push(() => app.stop());
  return app;
}

const log = (line: string) => console.log(line);
const started = performance.now();
log(
  `bench:feed — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start; ${options.concurrency} concurrent clients, ` +
    `${options.requests} requests per kind of read in ${options.rounds} interleaved rounds`,
);

const n = (pins: number) => pins.toLocaleString('en-US');
let postgres: FeedFigures | undefined;
let pglite: FeedFigures | undefined;
let scroll: ScrollResult | undefined;
const seedLines: string[] = [];
let explained: string[] = [];
try {
  let databaseUrl = values.database;
  if (databaseUrl === undefined) {
    log(`\nPostgres: seeding ${options.pins.toLocaleString('en-US')} pins…`);
    const database = await createTestDatabase();
    if (values['keep-database']) log(`Postgres: keeping the database ${database.url}`);
    else cleanups.push(() => database.drop());
    const seeded = await seedDatabase({ kind: 'postgres', url: database.url }, { pins: options.pins });
    seedLines.push(seedLine('Postgres', seeded));
    log(seedLines.at(-1) as string);
    databaseUrl = database.url;
  } else {
    log(`\nPostgres: reusing ${databaseUrl}: ${await prepareDatabase(databaseUrl)}`);
  }
  const app = await startApp({ DATABASE_URL: databaseUrl }, 'app postgres');
  log('Postgres: measuring reads…');
  if (values['search-only']) {
    const scenarios = await measureSearch(app.url, options);
    log(['', ...searchTable(`Postgres, search reads (load average ${loadavg()[0]?.toFixed(1)} now)`, scenarios)].join('\n'));
    postgres = { scenarios } as unknown as FeedFigures;
  } else postgres = await measureFeed(app.url, { ...options, pins: options.pins });
  const slow = slowestSearchRead(postgres);
  if (slow) {
    log(`Postgres: explaining the slowest search read (${slow.path})…`);
    explained = [`Slowest search read on Postgres: ${slow.label}, GET ${slow.path} (${slow.ms.toFixed(1)} ms when measured)`, ...(await explainRequest(databaseUrl, slow.path))];
  }
  if (values['search-only']) {
    await cleanUp();
    log([...searchVerdicts(postgres, undefined, { postgres: `at ${n(options.pins)} pins (Postgres)`, pglite: '' }), '', ...explained].join('\n'));
    process.exit(0);
  }
  if (!values['skip-browser']) {
    log('Chromium: building the client if it is stale, then scrolling the home page…');
    ensureClientBuilt();
    scroll = await scrollHome(app.url, options.scroll);
  }
  await cleanUp();

  if (!values['skip-pglite']) {
    log(`\nPGlite: seeding ${options.pglitePins.toLocaleString('en-US')} pins…`);
    const root = mkdtempSync(path.join(tmpdir(), 'pinboard-bench-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    const dir = path.join(root, 'pglite');
    const seededLite = await seedDatabase({ kind: 'pglite', dir }, { pins: options.pglitePins });
    seedLines.push(seedLine('PGlite', seededLite));
    log(seedLines.at(-1) as string);
    const lite = await startApp({ PGLITE_DIR: dir }, 'app pglite');
    log('PGlite: measuring reads…');
    pglite = await measureFeed(lite.url, { ...options, pins: options.pglitePins });
    await cleanUp();
  }
} finally {
  await cleanUp();
}

const lines = ['', '=== bench:feed results ===', ...seedLines, ''];
if (postgres) lines.push(...readsTable(`Postgres, ${n(options.pins)} pins — latency over loopback, ${options.concurrency} concurrent clients`, postgres), '');
if (pglite) lines.push(...readsTable(`PGlite (embedded), ${n(options.pglitePins)} pins`, pglite), '');
if (scroll) lines.push(...scrollTable(scroll), '');
lines.push('Targets:');
if (postgres) lines.push(...pageVerdicts(`at ${n(options.pins)} pins (Postgres)`, postgres));
if (scroll) lines.push(...scrollVerdicts(scroll, options.scroll.every));
if (pglite) {
  const worst = ratios(pglite).reduce((a, b) => (b.p50 > a.p50 ? b : a));
  lines.push(`  (PGlite, ${n(options.pglitePins)} pins, for reference: worst page ${worst.label} at ${worst.p50.toFixed(2)}× a single-pin read at p50)`);
}
lines.push(...searchVerdicts(postgres, pglite, { postgres: `at ${n(options.pins)} pins (Postgres)`, pglite: `at ${n(options.pglitePins)} pins (PGlite)` }));
if (explained.length) lines.push('', ...explained, '');
lines.push(`Load average at the end: ${loadavg()[0]?.toFixed(1)}; total ${((performance.now() - started) / 1000).toFixed(0)} s.`);
log(lines.join('\n'));
