import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { PinList } from '../../contract/pins.ts';
import type { SearchParams } from '../../contract/search.ts';
import type { DB } from '../../db/schema.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { rankedKeyset } from '../paging/ranked.ts';
import { type ExpandedQuery, expandQuery } from './expand.ts';
import { pinsInOrder } from './pins-in-order.ts';
import { parseQuery } from './query.ts';

// GET /api/search (docs/search.md). Matching pins are found through the GIN index on the stored
// vector (`search @@ query`) and ranked with ts_rank over that stored vector, weights
// title (A) > description (B) > tags (C), plus a small bonus for a pin whose author the query
// names. Ranking reads every matching row once per page: the cost grows with how many pins match
// (measured in bench:feed), never with the table.

/** ts_rank's weights for D, C, B, A: a title hit outranks any number of description hits. */
const WEIGHTS = '{0.05, 0.2, 0.4, 1.0}';
/** Added for a pin by a user the query names: below a single tag hit (0.2 / terms). */
const AUTHOR_BONUS = 0.05;
/** Scores are integers in the cursor: the rank times this. */
const SCALE = 1_000_000;

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
  const after = page.after;
  const { rows } = await sql<{ id: number; score: number }>`
    select id, score from (
      select p.id, round(${rank} * ${SCALE})::int as score from pins p where ${match}
    ) as matched
    ${after ? sql`where (score, id) < (${after.score}, ${after.id})` : sql``}
    order by score desc, id desc
    limit ${page.limit + 1}`.execute(db);
  const { items, nextCursor } = page.finish(rows);
  return { pins: await pinsInOrder(db, items.map((row) => row.id)), nextCursor };
}

/**
 * The WHERE clause: clauses that name no user go into one tsquery (one GIN scan); a clause that
 * names users is its own `(search @@ … or user_id = any(…))`, a GIN scan or'ed with the
 * pins_user_id_idx scan. Null when nothing could match through an index (stop words only).
 */
function matchCondition(expanded: ExpandedQuery): RawBuilder<boolean> | null {
  const textOnly = expanded.clauses.filter((clause) => clause.authorIds.length === 0).map((clause) => `(${clause.tsquery})`);
  const withAuthors = expanded.clauses.filter((clause) => clause.authorIds.length > 0);
  if (textOnly.length === 0 && withAuthors.length === 0) return null;
  const parts: RawBuilder<boolean>[] = [];
  if (textOnly.length) parts.push(sql<boolean>`p.search @@ ${textOnly.join(' & ')}::tsquery`);
  for (const clause of withAuthors) {
    const byAuthor = sql<boolean>`p.user_id = any(${clause.authorIds}::int[])`;
    parts.push(clause.tsquery ? sql<boolean>`(p.search @@ ${clause.tsquery}::tsquery or ${byAuthor})` : byAuthor);
  }
  // A filter on what the conditions above found, never an index condition of its own: a bare
  // negation would read the whole index.
  if (expanded.exclusions.length) parts.push(sql<boolean>`not (p.search @@ ${expanded.exclusions.map((x) => `(${x})`).join(' | ')}::tsquery)`);
  return sql.join(parts, sql` and `) as RawBuilder<boolean>;
}

/** ts_rank over the stored vector (no re-tokenizing), plus the author bonus; a float8. */
function rankExpression(expanded: ExpandedQuery): RawBuilder<number> {
  const all = expanded.clauses.filter((clause) => clause.tsquery).map((clause) => `(${clause.tsquery})`).join(' & ');
  const authorIds = [...new Set(expanded.clauses.flatMap((clause) => clause.authorIds))];
  const text = all ? sql`ts_rank(${WEIGHTS}::float4[], p.search, ${all}::tsquery)::float8` : sql`0::float8`;
  return authorIds.length ? sql<number>`(${text} + case when p.user_id = any(${authorIds}::int[]) then ${AUTHOR_BONUS}::float8 else 0 end)` : sql<number>`${text}`;
}
