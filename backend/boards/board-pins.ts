import type { Kysely } from 'kysely';
import type { BoardPin } from '../../contract/boards.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import { imageOf, toPinImage, type ImageFields } from '../images/media-urls.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { boardPinFilter, type PinAudience } from './board-pin-filter.ts';

/** A board's pin as the wire carries it: the stored image's fields become its thumbnail URLs. */
export function toBoardPin(row: { id: number; title: string; image_url: string; image: ImageFields | null; visibility: BoardPin['visibility'] }): BoardPin {
  return { id: row.id, title: row.title, image_url: row.image_url, image: row.image && toPinImage(row.image), visibility: row.visibility };
}

/**
 * One page of a board's pins, most recently added first, as `audience` may see them: keyset on
 * the entry's id (board_pins (board_id, id)), never an offset. `scope` binds the cursor to the
 * list it came from (a board's page, a link's page).
 */
export async function boardPinsPage(
  db: Kysely<DB>,
  cursors: CursorCodec,
  scope: string,
  boardId: number,
  audience: PinAudience,
  query: PageParams,
): Promise<{ pins: BoardPin[]; nextCursor: string | null }> {
  const page = keyset(cursors, scope, query);
  let select = db
    .selectFrom('board_pins')
    .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
    .select((eb) => ['board_pins.id as entry', 'pins.id', 'pins.title', 'pins.image_url', 'pins.visibility', imageOf(eb).as('image')])
    .where('board_pins.board_id', '=', boardId)
    .where(boardPinFilter(audience))
    .orderBy('board_pins.id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('board_pins.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.entry);
  return { pins: items.map(toBoardPin), nextCursor };
}
