import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { PinList } from '../../contract/pins.ts';
import type { SearchParams } from '../../contract/search.ts';
import type { DB } from '../../db/schema.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { type IdRange, rankedKeyset } from '../paging/ranked.ts';
import { expandQuery } from './expand.ts';
import { matchCondition, rankExpression } from './match.ts';
import { pinsInOrder } from '../pins/pins-in-order.ts';
import { parseQuery } from './query.ts';
import { approach, widen, withBitmapScans } from './window.ts';

// GET /api/search (docs/search.md). Matching pins are found through the GIN index on the stored
// vector (`search @@ query`) and ranked with ts_rank over that stored vector, weights
// title (A) > description (B) > tags (C), plus a small bonus for a pin whose author the query
// names (./match.ts).
//
// Ranking reads every pin it ranks, so a search ranks the newest CANDIDATES matches: a narrow query
// all its matches, a broad one ("home" on a million pins) the most recent of them; a page costs
// about that many rows whatever the table holds (./window.ts says where they are looked for). The
// ids considered are fixed at page one (the cursor carries them), so every page ranks the same pins.

/** Scores are integers in the cursor: the rank times this. */
const SCALE = 1_000_000;
/** The most matches a search ranks: the newest ones (ten pages of fifty). */
export const CANDIDATES = 500;

const EMPTY: PinList = { pins: [], nextCursor: null };

export async function searchPins(db: Kysely<DB>, cursors: CursorCodec, params: SearchParams): Promise<PinList> {
  const parsed = parseQuery(params.q);
  // Cursors belong to their query (as typed, normalised by the parser).
  const scope = `search:${createHash('sha256').update(JSON.stringify(parsed)).digest('base64url').slice(0, 16)}`;
  const page = rankedKeyset(cursors, scope, params);
  if (parsed.clauses.length === 0) return EMPTY;
  const expanded = await expandQuery(db, parsed);
  const match = matchCondition(expanded);
  if (!match) return EMPTY;
  const rank = rankExpression(expanded);

  let range: IdRange;
  let rows: RankedRow[];
  if (page.after) {
    range = page.after;
    const { walk } = await approach(db, match, range.top, CANDIDATES);
    rows = (await rankedPage(db, { match, rank, range, walk, after: page.after, limit: page.limit })).rows;
  } else {
    const top = await largestPinId(db);
    const { walk, from } = await approach(db, match, top, CANDIDATES);
    range = { from, top };
    let ranked = await rankedPage(db, { match, rank, range, walk, limit: page.limit });
    // The window held fewer candidates than a search ranks: look again in a wider one.
    while (range.from > 0 && ranked.found < CANDIDATES) {
      range = { from: widen(range.from, top, ranked.found, CANDIDATES), top };
      ranked = await rankedPage(db, { match, rank, range, walk, limit: page.limit });
    }
    rows = ranked.rows;
  }
  const { items, nextCursor } = page.finish(rows, range);
  return { pins: await pinsInOrder(db, items.map((row) => row.id)), nextCursor };
}

interface RankedRow {
  id: number;
  score: number;
}

/**
 * One page of the ranked candidates (limit + 1 rows, to tell whether there is more), and how many
 * candidates there were: the newest CANDIDATES matches in the range, ranked, best first.
 */
async function rankedPage(
  db: Kysely<DB>,
  q: { match: RawBuilder<boolean>; rank: RawBuilder<number>; range: IdRange; walk: boolean; after?: RankedRow; limit: number },
): Promise<{ rows: RankedRow[]; found: number }> {
  return q.walk ? rankedQuery(db, q) : withBitmapScans(db, (trx) => rankedQuery(trx, q));
}

async function rankedQuery(
  db: Kysely<DB>,
  q: { match: RawBuilder<boolean>; rank: RawBuilder<number>; range: IdRange; after?: RankedRow; limit: number },
): Promise<{ rows: RankedRow[]; found: number }> {
  const { rows } = await sql<{ id: number | null; score: number | null; found: number }>`
    with candidates as materialized (
      select p.id, round(${q.rank} * ${SCALE})::int as score
      from (
        select p.id, p.search, p.user_id from pins p
        where ${q.match} and p.id > ${q.range.from} and p.id <= ${q.range.top}
        order by p.id desc limit ${CANDIDATES}
      ) as p
    )
    select page.id, page.score, counted.found
    from (select count(*)::int as found from candidates) as counted
    left join lateral (
      select id, score from candidates
      ${q.after ? sql`where (score, id) < (${q.after.score}, ${q.after.id})` : sql``}
      order by score desc, id desc
      limit ${q.limit + 1}
    ) as page on true`.execute(db);
  return {
    rows: rows.flatMap((row) => (row.id === null || row.score === null ? [] : [{ id: row.id, score: row.score }])),
    found: rows[0]?.found ?? 0,
  };
}

/** The largest pin id (0 when there are none): the end of the primary key. */
export async function largestPinId(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('pins').select((eb) => eb.fn.max('id').as('top')).executeTakeFirst();
  return row?.top ?? 0;
}
