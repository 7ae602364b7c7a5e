import { type Kysely, sql } from 'kysely';
import type { DatabaseTarget } from '../../db/connect.ts';
import { demoImages, demoImageUrl } from '../../db/demo-catalog.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import type { DB } from '../../db/schema.ts';
import { bulkLoad } from './bulk.ts';
import { openForSeeding } from './open.ts';
import { loadSearchTables, textOf, titleOf } from './search-seed.ts';

// Seeds a fresh database with SQL (generate_series), not through the API: a million pins through
// REST would take hours. Everything is derived from the row number with a multiplicative hash, so
// the same sizes always give the same data, and each pin's likes_count is computed by the very
// expression that generates its favorites rows: the counts equal the rows without a backfill pass
// (the trigger that keeps them is off during the load, see bulk.ts).

export interface SeedSizes {
  pins: number;
}

export interface SeedResult {
  users: number;
  pins: number;
  favorites: number;
  comments: number;
  seconds: number;
  /** Pins whose likes_count was compared with count(*) of their favorites, and how many differed. */
  checked: number;
  mismatched: number;
  /** Seconds per step (migrate, users, pins, …), in order. */
  steps: Array<[string, number]>;
}

const PHRASES = [
  'Morning light through the window.',
  'Saved for the next weekend trip.',
  'A palette of rust, cream and deep green.',
  'Shot on film, slightly overexposed.',
  'Idea for the spare room: shelves all the way up.',
  'The colours at the end of a long summer day.',
  'Found this at a flea market, still in love with it.',
  'Low budget, high impact.',
  'Would look great in a small flat.',
  'Layered textures and one bold accent.',
  'Take the left path after the bridge.',
  'Recipe in the comments, ask if you want it.',
  'Quiet corners make the best reading spots.',
];
// The demo's pictures, reused round-robin: every bulk pin points at a file the app serves.
const IMAGES = demoImages().map(demoImageUrl);

/** Users scale with pins (one per hundred), within 1,000..100,000. */
export function userCount(pins: number): number {
  return Math.min(100_000, Math.max(1_000, Math.round(pins / 100)));
}

// A number in [0, 1) from a row number (Knuth's multiplicative hash; the high bits are the good ones).
const unit = (i: string) => `(((${i}::bigint * 2654435761) % 4294967296) + 0.5) / 4294967296.0`;
/** Favorites of pin i: exponentially distributed, about two on average, at most 100. */
const likesOf = (i: string) => `least(100, floor(-ln(1 - ${unit(i)}) * 2.5))::int`;

/** Creates the schema (migrations) and loads the rows; returns counts and the time it took. */
export async function seedDatabase(target: DatabaseTarget, sizes: SeedSizes): Promise<SeedResult> {
  const database = await openForSeeding(target);
  try {
    const started = performance.now();
    const steps: Array<[string, number]> = [];
    const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const at = performance.now();
      const result = await run();
      steps.push([name, (performance.now() - at) / 1000]);
      return result;
    };
    const { db } = database;
    await step('migrate', () => migrateToLatest(db));
    const users = userCount(sizes.pins);
    await bulkLoad(
      db,
      ['users', 'pins', 'favorites', 'comments', 'pin_tags', 'tags', 'search_words'],
      (conn) => load(conn, sizes.pins, users, step),
      (seconds) => steps.push(['indexes', seconds]),
    );
    // As autovacuum would soon after a bulk load: visibility map, hint bits and planner
    // statistics, so the first measured reads do not pay for them.
    await step('vacuum analyze', () => sql`vacuum analyze`.execute(db));
    const count = async (table: 'favorites' | 'comments') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const check = await step('check', () => checkLikes(db, sizes.pins));
    return { users, pins: sizes.pins, favorites: await count('favorites'), comments: await count('comments'), ...check, steps, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}

type Step = <T>(name: string, run: () => Promise<T>) => Promise<T>;

async function load(db: Kysely<DB>, pins: number, users: number, step: Step): Promise<void> {
  // Nobody signs in as these accounts: the password hash is no hash at all, so no password matches.
  // The skeleton has a space, which no sign-up can produce, so it can never collide with one.
  await step('users', () =>
    sql`
    insert into users (id, email, username, username_skeleton, first_name, password_hash, created_at)
    overriding system value
    select i, 'reader' || i || '@bench.test', 'reader' || i, 'bench reader ' || i, null, '!', now() - interval '400 days'
    from generate_series(1, ${users}::int) as i`.execute(db),
  );

  // Newest first is id order, and created_at agrees with it: one pin a second up to now. Titles,
  // descriptions and tags come from a realistic vocabulary (./search-seed.ts).
  await step('pins', () =>
    sql`
    insert into pins (id, user_id, title, image_url, description, tags, created_at, updated_at, likes_count)
    overriding system value
    select i,
      1 + (i::bigint * 7919) % ${users}::int,
      ${titleOf('i')},
      (${IMAGES}::text[])[1 + i % ${IMAGES.length}::int],
      text.description,
      text.tags,
      now() - (${pins}::int - i) * interval '1 second',
      now() - (${pins}::int - i) * interval '1 second',
      ${sql.raw(likesOf('i'))}
    from generate_series(1, ${pins}::int) as i
    cross join lateral ${textOf('i')} as text`.execute(db),
  );
  await loadSearchTables(db, step);

  // The users of one pin's favorites are distinct: j * 104729 (a prime) differs modulo the user
  // count for every j below it.
  await step('favorites', () =>
    sql`
    insert into favorites (user_id, pin_id, created_at)
    select 1 + (p.i::bigint * 7919 + j::bigint * 104729) % ${users}::int, p.i, now() - (${pins}::int - p.i) * interval '1 second' + j * interval '1 minute'
    from generate_series(1, ${pins}::int) as p(i), generate_series(0, ${sql.raw(likesOf('p.i'))} - 1) as j`.execute(db),
  );

  // Every tenth pin has two comments (distinct authors, as the unique key wants).
  await step('comments', () =>
    sql`
    insert into comments (user_id, pin_id, text, created_at, updated_at)
    select 1 + (p.i::bigint * 31 + j * 97) % ${users}::int, p.i,
      (${PHRASES}::text[])[1 + (p.i + j) % ${PHRASES.length}::int],
      now() - (${pins}::int - p.i) * interval '1 second' + j * interval '1 hour',
      now() - (${pins}::int - p.i) * interval '1 second' + j * interval '1 hour'
    from generate_series(10, ${pins}::int, 10) as p(i), generate_series(0, 1) as j`.execute(db),
  );

  for (const table of ['users', 'pins']) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
  }
}

/** Compares likes_count with count(*) of the favorites rows for a sample of a thousand pins. */
async function checkLikes(db: Kysely<DB>, pins: number): Promise<{ checked: number; mismatched: number }> {
  const every = Math.max(1, Math.floor(pins / 1000));
  const { rows } = await sql<{ checked: string; mismatched: string }>`
    select count(*) as checked, count(*) filter (where p.likes_count <> (select count(*) from favorites f where f.pin_id = p.id)) as mismatched
    from pins p where p.id % ${every}::int = 0`.execute(db);
  const row = rows[0];
  return { checked: Number(row?.checked ?? 0), mismatched: Number(row?.mismatched ?? 0) };
}
