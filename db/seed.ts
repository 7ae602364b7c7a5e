import path from 'node:path';
import type { Kysely } from 'kysely';
import { parseTags } from '../contract/tags.ts';
import { DEMO_IMAGES_DIR, type DemoImage, demoImages, demoImageUrl } from './demo-catalog.ts';
import type { DB } from './schema.ts';
import { usernameSkeleton } from './username-skeleton.ts';

// The app's own rules come in as parameters: the data layer is used by the app, never the reverse.
export interface SeedOptions {
  demo: { email: string; username: string; password: string };
  /** The app's password hashing, so the demo account can sign in. */
  hashPassword: (password: string) => Promise<string>;
  /** Seed only the first N pictures of the catalog (tests use a dozen to stay fast). Default: all. */
  pins?: number;
}

/** A seeded pin whose picture still has to go through the image pipeline (its image_sha256 is null). */
export interface SeededPin {
  id: number;
  /** What the pin carries as image_url: `/seed-images/<file>`. */
  imageUrl: string;
  /** The picture's file on disk, to read instead of fetching imageUrl. */
  file: string;
}

export interface SeedResult {
  /** Every pin the seed created, newest first (catalog order). */
  pins: SeededPin[];
}

/** The sample authors, after the demo account. They cannot sign in (see seedDemoData). */
const AUTHORS = [
  { username: 'maya', firstName: 'Maya' },
  { username: 'leo', firstName: 'Leo' },
  { username: 'noor', firstName: 'Noor' },
  { username: 'kai', firstName: 'Kai' },
];
const USERS = 1 + AUTHORS.length;

/** Boards, each filled with the first seeded pins that match it (so they fill with any `pins` count). */
const BOARDS: Array<{ owner: number; name: string; holds: (image: DemoImage) => boolean }> = [
  { owner: 0, name: 'Photo walk', holds: (image) => image.kind === 'photo' },
  { owner: 0, name: 'Space and stars', holds: (image) => image.tags.includes('space') || image.tags.includes('astronomy') },
  { owner: 1, name: 'Creatures', holds: (image) => ['animals', 'cats', 'insects', 'birds'].some((tag) => image.tags.includes(tag)) },
  { owner: 2, name: 'Good times', holds: (image) => ['music', 'party', 'sports', 'games', 'toys', 'celebrations'].some((tag) => image.tags.includes(tag)) },
  { owner: 3, name: 'Kitchen table', holds: (image) => ['food', 'drinks', 'coffee'].some((tag) => image.tags.includes(tag)) },
];
const BOARD_SIZE = 12;

/** [user, pin index, text]: on the newest pins, so even a dozen seeded pins have a conversation. */
const COMMENTS: Array<[number, number, string]> = [
  [1, 0, 'Those colours are unreal. Where was this?'],
  [2, 0, 'Saving this for my next trip.'],
  [0, 1, 'I could stare at this all day.'],
  [3, 2, 'Look at those eyes!'],
  [0, 5, 'Love the muted palette.'],
  [4, 6, 'Now I need a coffee.'],
];

const HOUR = 3_600_000;

/**
 * Loads the demo account, four sample authors and their pins (one per catalog picture, newest first
 * in catalog order), boards, favorites and comments. Idempotent: does nothing and returns null when
 * the demo user exists, so it can run on every start of the embedded mode.
 *
 * Pins carry `image_url: '/seed-images/<file>'` and no stored image yet; the caller runs the returned
 * pins through the image pipeline (their rows are also found by `image_sha256 is null and image_url
 * like '/seed-images/%'`).
 */
export async function seedDemoData(db: Kysely<DB>, options: SeedOptions): Promise<SeedResult | null> {
  const { hashPassword } = options;
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', options.demo.email.toLowerCase()))
    .executeTakeFirst();
  if (existing) return null;

  const images = demoImages().slice(0, options.pins ?? Infinity);
  const [demoHash, otherHash] = await Promise.all([
    hashPassword(options.demo.password),
    // The sample authors cannot be signed into: their hash is of a random throwaway value.
    hashPassword(crypto.randomUUID()),
  ]);

  return db.transaction().execute(async (trx) => {
    const users = await trx
      .insertInto('users')
      .values([
        { email: options.demo.email.toLowerCase(), username: options.demo.username, username_skeleton: usernameSkeleton(options.demo.username), first_name: 'Demo', password_hash: demoHash },
        ...AUTHORS.map((a) => ({ email: `${a.username}@pinboard.test`, username: a.username, username_skeleton: usernameSkeleton(a.username), first_name: a.firstName, password_hash: otherHash })),
      ])
      .returning('id')
      .execute();
    const userId = (index: number) => (users[index] as { id: number }).id;

    // Authors take turns, and creation times step back irregularly (2 to 14 hours) from now, so
    // "newest first" is the catalog's order and the set spans several weeks.
    const now = Date.now();
    let hoursAgo = 0;
    const rows = images.map((image, index) => {
      hoursAgo += 2 + ((index * 7) % 13);
      const createdAt = new Date(now - hoursAgo * HOUR);
      return {
        user_id: userId(index % USERS),
        title: image.title,
        image_url: demoImageUrl(image),
        image_sha256: null,
        description: image.description,
        tags: parseTags(image.description),
        created_at: createdAt,
        updated_at: createdAt,
      };
    });
    // Lists page newest first by id, so the oldest pin goes in first. RETURNING's order is not
    // promised: rows are matched back by their (distinct) image addresses.
    const inserted = rows.length ? await trx.insertInto('pins').values(rows.toReversed()).returning(['id', 'image_url']).execute() : [];
    const idByUrl = new Map(inserted.map((row) => [row.image_url, row.id]));
    const pins: SeededPin[] = images.map((image) => ({ id: idByUrl.get(demoImageUrl(image)) as number, imageUrl: demoImageUrl(image), file: path.join(DEMO_IMAGES_DIR, image.file) }));
    const pinId = (index: number) => pins[index]?.id;

    const boards = await trx
      .insertInto('boards')
      .values(BOARDS.map((board) => ({ user_id: userId(board.owner), name: board.name })))
      .returning('id')
      .execute();
    const entries = BOARDS.flatMap((board, b) =>
      images.flatMap((image, index) => (board.holds(image) ? [{ board_id: (boards[b] as { id: number }).id, pin_id: pinId(index) as number }] : [])).slice(0, BOARD_SIZE),
    );
    if (entries.length) await trx.insertInto('board_pins').values(entries).execute();

    // The newest pin has two likes (tests rely on it); after that a fixed pattern gives about one
    // pin in seven a like from each user other than its author.
    const favorites = [
      { user_id: userId(1), pin_id: pinId(0) },
      { user_id: userId(2), pin_id: pinId(0) },
      ...images.flatMap((_, index) =>
        index === 0
          ? []
          : Array.from({ length: USERS }, (_, user) => user)
              .filter((user) => user !== index % USERS && (index * 31 + user * 17) % 7 === 0)
              .map((user) => ({ user_id: userId(user), pin_id: pinId(index) })),
      ),
    ].filter((f): f is { user_id: number; pin_id: number } => f.pin_id !== undefined);
    if (favorites.length) await trx.insertInto('favorites').values(favorites).execute();

    const comments = COMMENTS.filter(([, index]) => pinId(index) !== undefined).map(([user, index, text]) => ({ user_id: userId(user), pin_id: pinId(index) as number, text }));
    if (comments.length) await trx.insertInto('comments').values(comments).execute();
    return { pins };
  });
}

/**
 * Gives the demo account `password` when it still has `from` (the default, from a database
 * seeded outside production). True when it did. Other passwords are left alone: an operator may
 * have set one on purpose.
 */
export async function replaceDemoPassword(
  db: Kysely<DB>,
  options: { email: string; from: string; to: string; verify: (hash: string, password: string) => Promise<boolean>; hashPassword: (password: string) => Promise<string> },
): Promise<boolean> {
  const demo = await db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', options.email.toLowerCase()))
    .executeTakeFirst();
  if (!demo || !(await options.verify(demo.password_hash, options.from))) return false;
  await db
    .updateTable('users')
    .set({ password_hash: await options.hashPassword(options.to) })
    .where('id', '=', demo.id)
    .execute();
  return true;
}
