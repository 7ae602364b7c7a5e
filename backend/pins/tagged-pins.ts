import type { Kysely } from 'kysely';
import type { PinList } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { pinsInOrder } from './pins-in-order.ts';

/**
 * GET /api/pins/?tag=x: the tag's pins, newest first, paged by pin id along pin_tags' primary key
 * (tag, pin_id), so a page costs the same at any depth and for any tag. `tag` is already in its
 * stored form (contract/tags.ts tagParam).
 */
export async function listTaggedPins(db: Kysely<DB>, cursors: CursorCodec, query: { tag: string; limit?: number | undefined; cursor?: string | undefined }): Promise<PinList> {
  const page = keyset(cursors, `pins:tag:${query.tag}`, query);
  let select = db
    .selectFrom('pin_tags')
    .select('pin_id')
    .where('tag', '=', query.tag)
    .orderBy('pin_id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('pin_id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.pin_id);
  return {
    pins: await pinsInOrder(
      db,
      items.map((row) => row.pin_id),
    ),
    nextCursor,
  };
}
