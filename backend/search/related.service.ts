import { type Kysely, sql } from 'kysely';
import type { PageParams } from '../../contract/paging.ts';
import type { PinList } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { rankedKeyset } from '../paging/ranked.ts';
import { visibleTo } from '../visibility/pin-access.ts';
import { pinsInOrder } from '../pins/pins-in-order.ts';
import { largestPinId } from './search.service.ts';

// GET /api/pins/{id}/related (docs/search.md): "More like this". Pins that share tags with the pin,
// or boards the reader is a member of: each shared tag counts more the rarer it is (1 / ln(2 + its
// pin count)), each shared board SHARED_BOARD. Best first, then newest.
//
// Boards are private to their members: a board the reader is not on is never looked at, so its
// contents cannot leak through what is related (anonymous readers get tags only).
//
// Bounded work: the newest PER_SOURCE pins of each of the pin's tags and of up to BOARDS of its
// boards are the candidates, so a page costs the same for a tag of ten pins and one of a million.
// The list ends when the candidates do. Pins newer than page one (`top`) wait for the next visit.

const PER_SOURCE = 100;
const BOARDS = 20;
const SHARED_BOARD = 0.5;
const SCALE = 1_000_000;

export async function relatedPins(db: Kysely<DB>, cursors: CursorCodec, pinId: number, viewerId: number | undefined, query: PageParams): Promise<PinList> {
  // A private pin is 404 to whoever may not see it (docs/who-sees-what.md); its candidates are
  // public pins (tags hold only those) and pins of the reader's own boards.
  const pin = await db.selectFrom('pins').select('pins.id').where('pins.id', '=', pinId).where(visibleTo(viewerId)).executeTakeFirst();
  if (!pin) throw notFound('Pin');
  // A reader's cursor is theirs: the boards behind it are theirs.
  const page = rankedKeyset(cursors, `related:${pinId}:${viewerId ?? 0}`, query);
  const after = page.after;
  const top = after?.top ?? (await largestPinId(db));
  const boards =
    viewerId === undefined
      ? sql``
      : sql`
        union all
        select candidate.pin_id, ${SHARED_BOARD}::float8 as weight
        from (
          select bp.board_id from board_pins bp join boards b on b.id = bp.board_id
          where bp.pin_id = ${pinId}
            and (b.user_id = ${viewerId} or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = ${viewerId}))
          limit ${BOARDS}
        ) as shared
        cross join lateral (
          select x.pin_id from board_pins x where x.board_id = shared.board_id and x.pin_id <> ${pinId} and x.pin_id <= ${top}
          order by x.id desc limit ${PER_SOURCE}
        ) as candidate`;
  const { rows } = await sql<{ id: number; score: number }>`
    select id, score from (
      select candidates.pin_id as id, round(sum(candidates.weight) * ${SCALE})::int as score
      from (
        select candidate.pin_id, 1 / ln(2 + t.pin_count)::float8 as weight
        from pin_tags mine
        join tags t on t.tag = mine.tag
        cross join lateral (
          select other.pin_id from pin_tags other where other.tag = mine.tag and other.pin_id <> ${pinId} and other.pin_id <= ${top}
          order by other.pin_id desc limit ${PER_SOURCE}
        ) as candidate
        where mine.pin_id = ${pinId}
        ${boards}
      ) as candidates
      group by candidates.pin_id
    ) as ranked
    ${after ? sql`where (score, id) < (${after.score}, ${after.id})` : sql``}
    order by score desc, id desc
    limit ${page.limit + 1}`.execute(db);
  const { items, nextCursor } = page.finish(rows, { from: 0, top });
  return { pins: await pinsInOrder(db, items.map((row) => row.id)), nextCursor };
}
