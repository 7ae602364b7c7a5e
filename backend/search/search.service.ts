import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { COLOR_NAMES } from '../../contract/colors.ts';
import type { SearchParams, SearchResult } from '../../contract/search.ts';
import type { DB } from '../../db/schema.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { type IdRange, rankedKeyset } from '../paging/ranked.ts';
import { expandQuery } from './expand.ts';
import { filterCondition, matchCondition, rankExpression, type SearchFilters } from './match.ts';
import { pinsInOrder } from '../pins/pins-in-order.ts';
import { type ParsedQuery, parseQuery } from './query.ts';
import { resolveScope } from './scope.ts';
import { lexemeShares } from './frequency.ts';
import { estimatedShare } from './share.ts';
import { type Approach, approach, type ShareEstimate, widen, withBitmapScans } from './window.ts';

// GET /api/search (docs/search.md). Matching pins are found through the GIN index on the stored
// vector (`search @@ query`) and ranked with ts_rank over that stored vector, weights
// title (A) > description (B) > tags (C), plus a small bonus for a pin whose author the query
// names (./match.ts).
//
// Ranking reads every pin it ranks, so a search ranks the newest CANDIDATES matches: a narrow query
// all its matches, a broad one ("home" on a million pins) the most recent of them; a page costs
// about that many rows whatever the table holds (./window.ts says where they are looked for). The
// ids considered are fixed at page one (the cursor carries them), so every page ranks the same pins.
//
// Colours (`color:NAME`, `color=NAME`) and a scope (./scope.ts) narrow what matches. A query with
// colours and no words lists their pins newest first (colorPins).

/** Scores are integers in the cursor: the rank times this. */
const SCALE = 1_000_000;
/** The most matches a search ranks: the newest ones (ten pages of fifty). */
export const CANDIDATES = 500;

const NOTHING = { pins: [], nextCursor: null };

/**
 * How page one looked for its candidates (./window.ts): walking the primary key from the newest,
 * bitmap scans over a window of recent ids, or bitmap scans of every match (the GIN index).
 */
export type SearchPlan = 'walk' | 'window' | 'index';

export interface SearchOptions {
  /** Tests: look for the candidates this way whatever the estimate says (the results are the same). */
  plan?: SearchPlan;
  /** Tests: told the plan page one chose (or was given). */
  onPlan?: (plan: SearchPlan) => void;
}

/** `userId`: the caller, for a scope (none: an anonymous reader). */
export async function searchPins(db: Kysely<DB>, cursors: CursorCodec, params: SearchParams, userId?: number, options: SearchOptions = {}): Promise<SearchResult> {
  const typed = parseQuery(params.q);
  const parsed: ParsedQuery = { ...typed, colors: COLOR_NAMES.filter((name) => typed.colors.includes(name) || (params.color ?? []).includes(name)) };
  const scope = await resolveScope(db, params.scope, userId);
  const filters: SearchFilters = { scope: scope.condition, colors: parsed.colors };
  // Cursors belong to their query (as typed, normalised by the parser), colours and scope.
  const key = createHash('sha256')
    .update(JSON.stringify([parsed, scope.key]))
    .digest('base64url')
    .slice(0, 16);
  if (parsed.clauses.length === 0 && parsed.colors.length === 0) return { ...NOTHING, widened: false };
  const expanded = await expandQuery(db, parsed);
  const match = matchCondition(expanded, filters);
  if (!match) {
    // Nothing but colours (stop words aside): their pins, newest first, less the exclusions.
    if (parsed.colors.length === 0) return { ...NOTHING, widened: false };
    return { ...(await colorPins(db, cursors, `search-colors:${key}`, filterCondition(filters, expanded.exclusions), params)), widened: false };
  }
  const rank = rankExpression(expanded);
  const page = rankedKeyset(cursors, `search:${key}`, params);

  // A word naming users also matches their pins, which no word statistics tell: the planner is asked.
  const byWords = expanded.clauses.every((clause) => clause.authorIds.length === 0);
  const tsqueries = expanded.clauses.map((clause) => clause.tsquery);
  const share = scope.everyone && byWords && !options.plan ? await wordShare(db, tsqueries, parsed.colors) : null;
  let range: IdRange;
  let rows: RankedRow[];
  if (page.after) {
    range = page.after;
    const chosen = await lookFor(db, match, range.top, scope.everyone, share, options.plan);
    // A walk only over the ids it was sized for (page one widened past them with bitmap scans).
    const walk = chosen.walk && range.from >= chosen.from;
    rows = (await rankedPage(db, { match, rank, range, walk, after: page.after, limit: page.limit })).rows;
  } else {
    const top = await largestPinId(db);
    const { walk, from } = await lookFor(db, match, top, scope.everyone, share, options.plan);
    options.onPlan?.(walk ? 'walk' : from > 0 ? 'window' : 'index');
    range = { from, top };
    let ranked = await rankedPage(db, { match, rank, range, walk, limit: page.limit });
    // The walk or window held fewer candidates than a search ranks: look again in a wider window,
    // sized by the density this one showed, with bitmap scans.
    while (range.from > 0 && ranked.found < CANDIDATES) {
      range = { from: widen(range.from, top, ranked.found, CANDIDATES), top };
      ranked = await rankedPage(db, { match, rank, range, walk: false, limit: page.limit });
    }
    rows = ranked.rows;
  }
  const { items, nextCursor } = page.finish(rows, range);
  return {
    pins: await pinsInOrder(
      db,
      items.map((row) => row.id),
    ),
    nextCursor,
    widened: expanded.widened,
  };
}

/**
 * Where the candidates are looked for (./window.ts) among all public pins. A scope's pins are a set
 * read from its own index (./scope.ts): the planner joins it to the pins as it sees fit, and the
 * set bounds the work.
 */
async function lookFor(db: Kysely<DB>, match: RawBuilder<boolean>, top: number, everyone: boolean, share: ShareEstimate | null, plan?: SearchPlan): Promise<Approach> {
  if (plan === 'walk' || !everyone) return { walk: true, from: 0 };
  if (plan === 'index') return { walk: false, from: 0 };
  return approach(db, match, top, CANDIDATES, share);
}

/**
 * The estimated share of pins matching the words and colours, from how common each word is
 * (./frequency.ts, ./share.ts); null when there are no statistics yet (the planner is asked).
 */
async function wordShare(db: Kysely<DB>, tsqueries: string[], colors: SearchFilters['colors']): Promise<ShareEstimate | null> {
  const stats = await lexemeShares(db);
  return stats ? estimatedShare(tsqueries, colors, stats) : null;
}

/**
 * The pins meeting `condition` (colours, scope, exclusions; no words), newest first, keyset paged on
 * the id. The planner picks between walking the primary key from the newest, testing each row (a
 * common colour: a page is met within a few hundred rows), and the GIN index on pins.colors (a rare
 * colour or combination), from the statistics ANALYZE keeps of the array's elements (docs/search.md).
 */
async function colorPins(db: Kysely<DB>, cursors: CursorCodec, scope: string, condition: RawBuilder<boolean>, params: SearchParams) {
  const page = keyset(cursors, scope, params);
  const { rows } = await sql<{ id: number }>`
    select p.id from pins p
    where ${condition} ${page.before === undefined ? sql`` : sql`and p.id < ${page.before}`}
    order by p.id desc limit ${page.limit + 1}`.execute(db);
  const { items, nextCursor } = page.finish(rows, (row) => row.id);
  return {
    pins: await pinsInOrder(
      db,
      items.map((row) => row.id),
    ),
    nextCursor,
  };
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
  const row = await db
    .selectFrom('pins')
    .select((eb) => eb.fn.max('id').as('top'))
    .executeTakeFirst();
  return row?.top ?? 0;
}
