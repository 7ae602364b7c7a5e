import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DuplicateGroups } from '../../contract/duplicates.ts';
import type { DB } from '../../db/schema.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { duplicatePinIds, pinsByIds } from './find-duplicates.ts';

// GET /api/duplicates: the caller's pins walked newest first (keyset on pins (user_id, id)), each
// with a picture looked up among the caller's other pins. A group is answered once, by its newest
// pin: one whose look-alikes include a newer pin was in that pin's group already.

/** Pins walked per page: a page costs at most this many look-ups, whatever the caller's pin count. */
export const PINS_WALKED = 100;
/** A page ends early once it holds this many groups. */
export const GROUPS_PER_PAGE = 10;

const walkedTo = z.number().int().positive();

export async function duplicateGroups(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: { cursor?: string | undefined }): Promise<DuplicateGroups> {
  const scope = `duplicates:${userId}`;
  const before = query.cursor === undefined ? undefined : cursors.decode(scope, query.cursor, walkedTo);
  let select = db
    .selectFrom('pins')
    .innerJoin('images', 'images.sha256', 'pins.image_sha256')
    .select(['pins.id', 'images.sha256', 'images.phash', 'images.phash_mirror'])
    .where('pins.user_id', '=', userId)
    .orderBy('pins.id', 'desc')
    .limit(PINS_WALKED);
  if (before !== undefined) select = select.where('pins.id', '<', before);
  const walked = await select.execute();
  const groups: DuplicateGroups['groups'] = [];
  let last: number | undefined;
  for (const pin of walked) {
    last = pin.id;
    const alike = await duplicatePinIds(db, userId, pin, { except: pin.id });
    if (alike.length === 0 || alike.some((id) => id > pin.id)) continue;
    // Read again: a pin deleted meanwhile leaves no group of one.
    const pins = await pinsByIds(db, [pin.id, ...alike]);
    if (pins.length >= 2) groups.push({ pins });
    if (groups.length === GROUPS_PER_PAGE) break;
  }
  const more = last !== undefined && (walked.length === PINS_WALKED || last !== walked.at(-1)?.id);
  return { groups, nextCursor: more && last !== undefined ? cursors.encode(scope, last) : null };
}
