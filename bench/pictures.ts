import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { PinList } from '../contract/pins.ts';
import { COLOR_NAMES } from '../contract/colors.ts';
import type { DB } from '../db/schema.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { nearPictures } from '../backend/images/seen/near-pictures.ts';
import { openDatabase } from '../db/connect.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { bulkLoad } from './feed/bulk.ts';
import { type Client, createClient, emptyMeasured, type Measured, percentile, round } from './feed/load.ts';
import { openForSeeding } from './feed/open.ts';
import { loadSearchTables, textOf, titleOf } from './feed/search-seed.ts';
import { userCount } from './feed/seed.ts';

// `npm run bench:pictures [-- --pins 1000000 --images 100000 --requests 400 --concurrency 2]`:
// what seeing pictures costs at scale, on Postgres. Seeds a fresh database with SQL (generate_series,
// the feed bench's vocabulary and bulk loader): a million pins over a hundred thousand images with
// random named colours, palettes and perceptual hashes (one image in twenty a near-copy of the one
// before: a few bits flipped), serves it with the real app, and measures p50/p99 of a single-pin
// read (the baseline), "More like this", the `color:red` search, and the near-duplicate look-up SQL
// (backend/images/seen/near-pictures.ts, as duplicates and More like this run it) on a connection of its
// own, each as a ratio to the single read of the same run. A benchmark: it never fails on timings.

const { values } = parseArgs({
  options: {
    pins: { type: 'string', default: '1000000' },
    images: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '4' },
  },
});
const count = (value: string) => {
  const n = Number(value.replaceAll('_', ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`not a positive integer: ${value}`);
  return n;
};
const options = { pins: count(values.pins), images: count(values.images), requests: count(values.requests), concurrency: count(values.concurrency), rounds: count(values.rounds) };

delete process.env.REDIS_URL;
delete process.env.DATABASE_URL;
const appEnv = { AUTO_MIGRATE: 'false', AUTO_SEED: 'false', API_RATE_LIMIT_PER_IP: '1000000000', LOG_LEVEL: 'warn' };
const cleanups = cleanupsOnExit();
const log = (line: string) => console.log(line);

/** One representative shade per named colour, for the palettes. */
const SHADES: Record<(typeof COLOR_NAMES)[number], string> = {
  red: '#cc2222',
  orange: '#e67e22',
  yellow: '#f1c40f',
  green: '#27ae60',
  teal: '#16a085',
  blue: '#2e6fd8',
  purple: '#8e44ad',
  pink: '#e88fb4',
  brown: '#7b4a2a',
  black: '#111111',
  grey: '#888888',
  white: '#f4f4f4',
};
const NEAR_COPY_EVERY = 20;

// A number in [0, 2^32) from an integer expression and a salt (Knuth's multiplicative hash).
const hashOf = (expr: string, salt: number) => `((((${expr})::bigint + ${salt}) * 2654435761) % 4294967296)`;
const sha = (expr: string) => `encode(sha256(('bench image ' || (${expr}))::bytea), 'hex')`;
/** A random 64-bit hash (signed) of image `base`: the first 16 hex digits of its md5. */
const phashOf = (base: string, salt: string) => `('x' || substr(md5(${salt} || (${base})::text), 1, 16))::bit(64)::bigint`;

type Step = <T>(name: string, run: () => Promise<T>) => Promise<T>;

async function load(db: Kysely<DB>, step: Step): Promise<void> {
  const users = userCount(options.pins);
  const names = sql`${[...COLOR_NAMES]}::text[]`;
  const shades = sql`${COLOR_NAMES.map((name) => SHADES[name])}::text[]`;
  await step('users', () =>
    sql`
    insert into users (id, email, username, username_skeleton, first_name, password_hash, created_at)
    overriding system value
    select i, 'reader' || i || '@bench.test', 'reader' || i, 'bench reader ' || i, null, '!', now() - interval '400 days'
    from generate_series(1, ${users}::int) as i`.execute(db),
  );
  // Two or three colour draws each (the same one twice counts once); the palette gives them shares.
  // A near-copy (every NEAR_COPY_EVERY-th) has the hash of the image before with 1 to 3 bits flipped.
  await step('images', () =>
    sql`
    insert into images (sha256, format, bytes, width, height, placeholder, phash, phash_mirror, palette, colors, seen_at, text_read_at)
    select ${sql.raw(sha('i'))}, 'jpeg', 100000, 800, 600, '',
      ${sql.raw(phashOf(`case when i % ${NEAR_COPY_EVERY} = 0 then i - 1 else i end`, "'p'"))}
        # case when i % ${sql.raw(String(NEAR_COPY_EVERY))} = 0 then (1::bigint << (i % 61)) | (1::bigint << ((i * 7) % 61)) else 0 end,
      ${sql.raw(phashOf('i', "'m'"))},
      c.palette, c.colors, now(), now()
    from generate_series(1, ${options.images}::int) as i
    cross join lateral (
      select jsonb_agg(jsonb_build_object('hex', (${shades})[d.k], 'share', round(d.share::numeric, 2)) order by d.share desc) as palette,
        array_agg((${names})[d.k] order by d.share desc) as colors
      from (
        select k, sum(share) as share from (values
          ((1 + ${sql.raw(hashOf('i', 1))} % 12)::int, 0.5),
          ((1 + ${sql.raw(hashOf('i', 2))} % 12)::int, 0.3),
          ((1 + ${sql.raw(hashOf('i', 3))} % 12)::int, 0.2)
        ) as draw(k, share) group by k
      ) as d
    ) as c`.execute(db),
  );
  // The feed bench's pins (titles, descriptions, #tags), each with image (i mod images) and its colours.
  await step('pins', () =>
    sql`
    insert into pins (id, user_id, title, image_url, image_sha256, colors, description, tags, created_at, updated_at)
    overriding system value
    select i, 1 + (i::bigint * 7919) % ${users}::int, ${titleOf('i')},
      '/media/' || img.sha256 || '.jpg', img.sha256, img.colors,
      text.description, text.tags,
      now() - (${options.pins}::int - i) * interval '1 second', now() - (${options.pins}::int - i) * interval '1 second'
    from generate_series(1, ${options.pins}::int) as i
    join images img on img.sha256 = ${sql.raw(sha(`1 + i % ${options.images}`))}
    cross join lateral ${textOf('i')} as text`.execute(db),
  );
  await loadSearchTables(db, step);
  for (const table of ['users', 'pins']) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
  }
}

async function seed(url: string): Promise<string[]> {
  const database = await openForSeeding({ kind: 'postgres', url });
  const lines: string[] = [];
  const step: Step = async (name, run) => {
    const at = performance.now();
    const result = await run();
    lines.push(`${name} ${((performance.now() - at) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    await step('migrate', () => migrateToLatest(database.db));
    await bulkLoad(
      database.db,
      ['users', 'images', 'pins', 'pin_tags', 'tags', 'search_words'],
      (conn) => load(conn, step),
      (seconds) => lines.push(`indexes ${seconds.toFixed(1)} s`),
    );
    await step('vacuum analyze', () => sql`vacuum analyze`.execute(database.db));
  } finally {
    await database.close();
  }
  return lines;
}

/** A random integer in [1, n]. */
const pick = (n: number) => 1 + Math.floor(Math.random() * n);

interface Row {
  label: string;
  measured: Measured | undefined;
  note?: string;
}

/** Whether `GET /api/search?q=…` filters by colour in this build: every pin it answers is red. */
async function colourSearchWorks(client: Client, path: string): Promise<boolean> {
  const answer = await client.get(path, { 'accept-encoding': 'identity' });
  if (answer.status !== 200) return false;
  const page = JSON.parse(answer.body.toString('utf8')) as PinList;
  return page.pins.length > 0 && page.pins.every((pin) => pin.image?.colors.includes('red'));
}

/** The look-alike look-up of one image's hashes, as duplicates and More like this run it. */
async function duplicateLookUp(db: Kysely<DB>, image: number): Promise<number> {
  const { rows } = await sql<{ phash: string; phash_mirror: string }>`select phash, phash_mirror from images where sha256 = ${sql.raw(sha(String(image)))}`.execute(db);
  const mine = rows[0];
  if (!mine) return 0;
  return (await nearPictures(db, mine, 10)).length;
}

const started = performance.now();
log(
  `bench:pictures — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start; ${options.concurrency} concurrent clients, ${options.requests} requests per kind in ${options.rounds} interleaved rounds`,
);
const rows: Row[] = [];
const seedLines: string[] = [];
try {
  log(`Postgres: seeding ${options.pins.toLocaleString('en-US')} pins over ${options.images.toLocaleString('en-US')} images…`);
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  seedLines.push(...(await seed(database.url)));
  log(seedLines.join('; '));
  const app = await startAppProcess({ ...appEnv, DATABASE_URL: database.url }, { name: 'app postgres' });
  cleanups.push(() => app.stop());
  const client = createClient(app.url, options.concurrency);
  const direct = await openDatabase({ kind: 'postgres', url: database.url }, { poolMax: options.concurrency });
  cleanups.push(() => direct.close());

  const colourPath = (await colourSearchWorks(client, '/api/search?q=color:red'))
    ? () => '/api/search?q=color:red'
    : (await colourSearchWorks(client, '/api/search?q=home&color=red'))
      ? () => '/api/search?q=home&color=red'
      : undefined;
  const single: Row = { label: 'single pin (GET /api/pins/{id})', measured: emptyMeasured() };
  const related: Row = { label: 'More like this, page 1', measured: emptyMeasured() };
  const colour: Row = colourPath
    ? { label: `colour search (${colourPath()})`, measured: emptyMeasured() }
    : { label: 'colour search (color:red)', measured: undefined, note: 'n/a: no colour filter in this build' };
  const duplicates: Row = { label: 'near-duplicate look-up (SQL, bands + bit_count)', measured: emptyMeasured() };
  rows.push(single, related, colour, duplicates);
  const perRound = Math.ceil(options.requests / options.rounds);
  // Warm-up: a few of each, unmeasured.
  for (let i = 0; i < 20; i++) {
    await client.get(`/api/pins/${pick(options.pins)}`);
    await client.get(`/api/pins/${pick(options.pins)}/related`);
  }
  for (let r = 0; r < options.rounds; r++) {
    log(`round ${r + 1} of ${options.rounds}…`);
    await round(client, () => `/api/pins/${pick(options.pins)}`, perRound, options.concurrency, single.measured!);
    await round(client, () => `/api/pins/${pick(options.pins)}/related`, perRound, options.concurrency, related.measured!);
    if (colourPath && colour.measured) await round(client, colourPath, perRound, options.concurrency, colour.measured);
    const into = duplicates.measured!;
    const at = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let i = 0; i < Math.ceil(perRound / options.concurrency); i++) {
          const t = performance.now();
          await duplicateLookUp(direct.db, pick(options.images));
          into.latencies.push(performance.now() - t);
        }
      }),
    );
    into.seconds += (performance.now() - at) / 1000;
  }
  client.close();
} finally {
  await cleanups.run();
}

const baseline = rows[0]?.measured;
const base99 = baseline ? percentile(baseline.latencies, 99) : NaN;
const base50 = baseline ? percentile(baseline.latencies, 50) : NaN;
const lines = ['', '=== bench:pictures results ===', `Seed: ${seedLines.join('; ')}`, '', `Postgres, ${options.pins.toLocaleString('en-US')} pins, ${options.images.toLocaleString('en-US')} images`];
lines.push('| read | calls | errors | p50 ms | p99 ms | p50 × single | p99 × single |', '|---|---|---|---|---|---|---|');
for (const row of rows) {
  if (!row.measured) {
    lines.push(`| ${row.label} | n/a | | | | | | ${row.note ?? ''}`);
    continue;
  }
  const p50 = percentile(row.measured.latencies, 50);
  const p99 = percentile(row.measured.latencies, 99);
  lines.push(`| ${row.label} | ${row.measured.latencies.length} | ${row.measured.errors} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${(p50 / base50).toFixed(2)} | ${(p99 / base99).toFixed(2)} |`);
}
lines.push('(the look-up SQL is timed on a connection of its own, without HTTP: its ratio flatters it)');
lines.push(`Load average at the end: ${loadavg()[0]?.toFixed(1)}; total ${((performance.now() - started) / 1000).toFixed(0)} s.`);
log(lines.join('\n'));
