import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DuplicatePin } from '../../contract/duplicates.ts';
import type { Pin } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import { nearPictures } from '../images/seen/near-pictures.ts';
import { PHASH_NEAR } from '../images/seen/phash.ts';
import { selectPins, toPin } from '../pins/pins.service.ts';

// The caller's own pins whose picture is the same (sha256) or nearly the same (perceptual hashes
// at most PHASH_NEAR bits apart, of the picture or of its mirror image): docs/duplicates.md.

/** At most this many look-alikes are answered. */
export const DUPLICATES_MAX = 10;

/**
 * Which side the join starts from: the owner's pins, each compared (exact: every look-alike at
 * ≤ PHASH_NEAR is found), or the look-alike pictures (backend/images/seen/near-pictures.ts: found
 * when ≤ 7 bits off, or 8 with one byte unchanged; docs/duplicates.md). The picture side reads
 * about images/16 entries of covering indexes, never the table; the owner's side joins each pin to
 * its picture. Measured at a million pictures (docs/duplicates.md): 12 ms for the picture side's
 * 62,500 entries, about 1 s for 100,000 owner's pins, so an owner's pin costs about 50 index
 * entries and the owner's side leads while their pins number under images/800.
 */
export const BAND_SHARE = 800;

/** The most look-alike pictures a big account's look-up considers (each is one index range of pins). */
const NEAR_PICTURES_MAX = 1_000;

/** Below this many pins the owner's pins always lead (about 20 ms at most, and exact). */
export const OWN_PINS_ALWAYS = 2_000;

/** What a picture is known by: its bytes' hash and, once seen, its perceptual hashes (signed bigints as strings). */
export interface PictureKey {
  sha256: string;
  phash: string | null;
  phash_mirror: string | null;
}

/** `images.phash` near either hash: the XOR's set bits counted (bit_count of bit(64): Postgres 14+). */
function nearEither(phash: string, mirror: string | null): RawBuilder<boolean> {
  const near = (hash: string) => sql<boolean>`bit_count((images.phash # ${hash}::bigint)::bit(64)) <= ${PHASH_NEAR}`;
  return mirror === null ? near(phash) : sql<boolean>`(${near(phash)} or ${near(mirror)})`;
}

/**
 * The ids of `userId`'s pins showing the picture or a near one, newest first, at most `limit`,
 * less `except` (the pin being compared). The join starts from the smaller side: the owner's pins
 * when they are few (users.pin_count), else the pictures sharing a hash band.
 */
export async function duplicatePinIds(db: Kysely<DB>, userId: number, picture: PictureKey, options: { except?: number; limit?: number } = {}): Promise<number[]> {
  const limit = options.limit ?? DUPLICATES_MAX;
  const except = options.except === undefined ? sql`true` : sql`pins.id <> ${options.except}`;
  const { phash, phash_mirror: mirror } = picture;
  if (phash === null) {
    const { rows } = await sql<{ id: number }>`
      select pins.id from pins
      where pins.image_sha256 = ${picture.sha256} and pins.user_id = ${userId} and ${except}
      order by pins.id desc limit ${limit}`.execute(db);
    return rows.map((row) => row.id);
  }
  // The planner's row estimate of images (pg_class.reltuples, kept by autovacuum's analyze; -1
  // before the first): a catalog read, not a count.
  const { rows: sides } = await sql<{ pin_count: number; images: number }>`
    select users.pin_count + users.private_pin_count as pin_count, (select greatest(reltuples, 0)::float8 from pg_class where oid = 'images'::regclass) as images
    from users where users.id = ${userId}`.execute(db);
  const owner = sides[0];
  if (!owner) return [];
  if (owner.pin_count <= Math.max(OWN_PINS_ALWAYS, owner.images / BAND_SHARE)) {
    const { rows } = await sql<{ id: number }>`
      select pins.id from pins join images on images.sha256 = pins.image_sha256
      where pins.user_id = ${userId} and ${except}
        and (pins.image_sha256 = ${picture.sha256} or (images.phash is not null and ${nearEither(phash, mirror)}))
      order by pins.id desc limit ${limit}`.execute(db);
    return rows.map((row) => row.id);
  }
  // The look-alike pictures (backend/images/seen/near-pictures.ts: index-only band scans), few next
  // to a million; each one's pins are one index range (pins_image_sha256), kept when the owner's.
  const near = await nearPictures(db, { phash, phash_mirror: mirror }, NEAR_PICTURES_MAX);
  const shas = [picture.sha256, ...near.map((row) => row.sha256)];
  const { rows } = await sql<{ id: number }>`
    select pins.id from pins
    where pins.image_sha256 = any (${shas}::text[]) and pins.user_id = ${userId} and ${except}
    order by pins.id desc limit ${limit}`.execute(db);
  return rows.map((row) => row.id);
}

/** Pins by id, newest first (the ids are the caller's own pins: no visibility check is needed). */
export async function pinsByIds(db: Kysely<DB>, ids: readonly number[]): Promise<Pin[]> {
  if (ids.length === 0) return [];
  const rows = await selectPins(db)
    .where('pins.id', 'in', [...ids])
    .orderBy('pins.id', 'desc')
    .execute();
  return rows.map(toPin);
}

/**
 * The boards each pin is in, as `readerId` sees them: their own, those they are a member of, and
 * public ones. Oldest entry first.
 */
export async function boardsOfPins(db: Kysely<DB>, readerId: number, pinIds: readonly number[]): Promise<Map<number, Array<{ id: number; name: string }>>> {
  const byPin = new Map<number, Array<{ id: number; name: string }>>(pinIds.map((id) => [id, []]));
  if (pinIds.length === 0) return byPin;
  const { rows } = await sql<{ pin_id: number; id: number; name: string }>`
    select bp.pin_id, b.id, b.name from board_pins bp join boards b on b.id = bp.board_id
    where bp.pin_id = any(${[...pinIds]}::int[])
      and (b.visibility = 'public' or b.user_id = ${readerId} or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = ${readerId}))
    order by bp.added_at, bp.id`.execute(db);
  for (const row of rows) byPin.get(row.pin_id)?.push({ id: row.id, name: row.name });
  return byPin;
}

/** POST /api/images/'s `duplicates`: the caller's pins with this picture or a near one, each with its boards. */
export async function findDuplicates(db: Kysely<DB>, userId: number, picture: PictureKey): Promise<DuplicatePin[]> {
  const pins = await pinsByIds(db, await duplicatePinIds(db, userId, picture));
  const boards = await boardsOfPins(
    db,
    userId,
    pins.map((pin) => pin.id),
  );
  return pins.map((pin) => ({ pin, boards: boards.get(pin.id) ?? [] }));
}

/** The picture key of a pin's stored image (undefined: the pin has none yet). */
export async function pictureOfPin(db: Kysely<DB>, pinId: number): Promise<PictureKey | undefined> {
  return db
    .selectFrom('pins')
    .innerJoin('images', 'images.sha256', 'pins.image_sha256')
    .select(['images.sha256', 'images.phash', 'images.phash_mirror'])
    .where('pins.id', '=', pinId)
    .executeTakeFirst();
}
