import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { usernameSkeleton } from './username-skeleton.ts';

// The app's own rules come in as parameters: the data layer is used by the app, never the reverse.
export interface SeedOptions {
  demo: { email: string; username: string; password: string };
  /** The app's password hashing, so the demo account can sign in. */
  hashPassword: (password: string) => Promise<string>;
}

// Sample pins use images this app serves itself (db/seed-images, mounted at /seed-images), so a
// fresh install shows real pictures without any internet access.
const SAMPLE_PINS: Array<{ owner: 0 | 1 | 2; title: string; image: string; description: string }> = [
  { owner: 0, title: 'Sunrise over the dunes', image: 'sunrise-dunes', description: 'Warm light on the sand before the heat sets in.' },
  { owner: 1, title: 'Alpine lake', image: 'alpine-lake', description: 'Glassy water, three ridges deep.' },
  { owner: 2, title: 'Lighthouse at dusk', image: 'lighthouse-dusk', description: 'The last ferry passes as the lamp comes on.' },
  { owner: 0, title: 'Citrus still life', image: 'citrus', description: 'Kitchen palette: tangerine, honey and saffron.' },
  { owner: 1, title: 'Night camping', image: 'night-camp', description: 'A moonlit ridge and a tent with a view.' },
  { owner: 2, title: 'Minimal ceramics', image: 'ceramics', description: 'Soft clay tones for a calm shelf.' },
  { owner: 0, title: 'Ocean waves', image: 'ocean-waves', description: 'Layered blues for a bathroom refresh.' },
  { owner: 1, title: 'Autumn forest', image: 'autumn-forest', description: 'Rust, amber and a low afternoon sun.' },
  { owner: 2, title: 'Desert cactus garden', image: 'desert-cactus', description: 'Dry-garden ideas that need almost no water.' },
  { owner: 0, title: 'City skyline', image: 'city-skyline', description: 'Purple hour over the rooftops.' },
  { owner: 1, title: 'Houseplant corner', image: 'houseplants', description: 'Green layers for a bright reading nook.' },
  { owner: 2, title: 'Hot air balloons', image: 'balloons', description: 'Festival morning, clear skies.' },
];

/**
 * Loads the demo account and sample data. Idempotent: does nothing when the demo user exists, so it
 * can run on every start of the embedded mode.
 */
export async function seedDemoData(db: Kysely<DB>, options: SeedOptions): Promise<boolean> {
  const { hashPassword } = options;
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', options.demo.email.toLowerCase()))
    .executeTakeFirst();
  if (existing) return false;

  const [demoHash, otherHash] = await Promise.all([
    hashPassword(options.demo.password),
    // The sample authors cannot be signed into: their hash is of a random throwaway value.
    hashPassword(crypto.randomUUID()),
  ]);

  await db.transaction().execute(async (trx) => {
    const users = await trx
      .insertInto('users')
      .values([
        { email: options.demo.email.toLowerCase(), username: options.demo.username, username_skeleton: usernameSkeleton(options.demo.username), first_name: 'Demo', password_hash: demoHash },
        { email: 'maya@pinboard.test', username: 'maya', username_skeleton: usernameSkeleton('maya'), first_name: 'Maya', password_hash: otherHash },
        { email: 'leo@pinboard.test', username: 'leo', username_skeleton: usernameSkeleton('leo'), first_name: 'Leo', password_hash: otherHash },
      ])
      .returning('id')
      .execute();
    const userIds = users.map((u) => u.id);
    const ownerId = (index: 0 | 1 | 2) => userIds[index] as number;

    const pins: number[] = [];
    for (const [index, pin] of SAMPLE_PINS.entries()) {
      // Spread creation times so "newest first" has a stable, believable order.
      const createdAt = new Date(Date.now() - (SAMPLE_PINS.length - index) * 3_600_000);
      const row = await trx
        .insertInto('pins')
        .values({
          user_id: ownerId(pin.owner),
          title: pin.title,
          image_url: `/seed-images/${pin.image}.svg`,
          description: pin.description,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      pins.push(row.id);
    }
    const pinId = (index: number) => pins[index] as number;

    const boards = await trx
      .insertInto('boards')
      .values([
        { user_id: ownerId(0), name: 'Travel dreams' },
        { user_id: ownerId(0), name: 'Home ideas' },
        { user_id: ownerId(1), name: 'Outdoors' },
      ])
      .returning('id')
      .execute();
    const boardId = (index: number) => (boards[index] as { id: number }).id;
    await trx
      .insertInto('board_pins')
      .values([
        { board_id: boardId(0), pin_id: pinId(1) },
        { board_id: boardId(0), pin_id: pinId(2) },
        { board_id: boardId(0), pin_id: pinId(11) },
        { board_id: boardId(1), pin_id: pinId(5) },
        { board_id: boardId(1), pin_id: pinId(10) },
        { board_id: boardId(2), pin_id: pinId(4) },
        { board_id: boardId(2), pin_id: pinId(7) },
      ])
      .execute();

    await trx
      .insertInto('favorites')
      .values([
        { user_id: ownerId(0), pin_id: pinId(1) },
        { user_id: ownerId(0), pin_id: pinId(8) },
        { user_id: ownerId(1), pin_id: pinId(0) },
        { user_id: ownerId(1), pin_id: pinId(2) },
        { user_id: ownerId(2), pin_id: pinId(0) },
        { user_id: ownerId(2), pin_id: pinId(1) },
      ])
      .execute();

    await trx
      .insertInto('comments')
      .values([
        { user_id: ownerId(1), pin_id: pinId(0), text: 'Those colours are unreal. Where was this?' },
        { user_id: ownerId(2), pin_id: pinId(0), text: 'Saving this for my next trip.' },
        { user_id: ownerId(0), pin_id: pinId(1), text: 'I could stare at this all day.' },
        { user_id: ownerId(0), pin_id: pinId(5), text: 'Love the muted palette.' },
      ])
      .execute();
  });
  return true;
}
