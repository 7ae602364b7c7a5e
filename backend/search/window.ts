import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';

// Where and how a search looks for its candidates (the newest CANDIDATES matches, ./search.service.ts),
// from the share of pins that match. With the words' shares (./frequency.ts, ./share.ts: `likely`,
// the shares of and'ed terms multiplied, and `most`, the smallest of them, which words that go
// together can reach):
//
// - `most` of the pins few (FEW_MATCHES at most): every match, from the GIN index; at most about
//   that many heap pages, whatever the words' correlation.
// - `likely` and `most` agree (one word, or words as common as each other's product says):
//   - a large share (DENSE): walking the primary key from the newest meets enough matches at once.
//     The walk is bounded to the ids that should hold WALK_SLACK times the matches needed;
//   - from WINDOWED: a window of the newest ids sized to hold about WINDOW_SLACK times the
//     candidates needed, its matches found by and'ing the GIN bitmap with the primary key's range
//     bitmap, so a heap page is read only for a match in the window. (Below WINDOWED the range
//     bitmap of the wide window it would take costs more than reading every match: at a million
//     pins, a 0.4 % word: 234,000 ids and 81 ms against 4,262 heap pages.)
//   - fewer: every match, from the GIN index.
// - they do not (two common words: independent, they are rare together; going together, common):
//   a bounded walk of the newest ids first, sized to meet the candidates were `most` of the pins to
//   match (at most PROBE ids), then widened by the density it met. Independence predicted 1,312
//   matches for `camping bag` in the benchmark, which has 11,703 (1.2 %), and reading all of them
//   took 0.2–0.4 s; the probe meets about 230 in 20,000 rows, and a window of the newest 85,000
//   ids (primary key range and GIN bitmaps) holds the rest. Independent words rare together meet a
//   few, and every match is read from the GIN index.
//
// A walk or window that held too few is widened by the density it showed (`widen`), with bitmap
// scans: from what it saw, a window of recent ids, or every match when it saw none.
//
// Without statistics (ANALYZE has not run), the planner's own estimate (EXPLAIN), which costs a plan
// and no rows, stands for both.
//
// Bitmap scans are forced (`withBitmapScans`) except for a walk: left to itself the planner often
// walks the primary key anyway (its costs assume rows on disk, a cheap `@@`, and trust its
// estimate), testing every row: at a million pins, 115,000 rows and 53 ms against 7 to 18 ms for
// the bitmaps, and a misspelt word that matched nothing read all million rows (1.4 s) where the GIN
// index answered in 0.1 ms.

/** How many more matches than it needs a window is sized for (the estimate is an estimate). */
const WINDOW_SLACK = 2;
/** How many more matches than it needs a walk's range is sized for. */
const WALK_SLACK = 4;
/** The share of pins matching above which the primary key walk finds the candidates soonest. */
const DENSE = 0.04;
/** The share of pins matching above which a window of recent ids is cheaper than every match. */
const WINDOWED = 0.006;
/** At most this many matches (by `most`): every match, from the GIN index. */
const FEW_MATCHES = 1_000;
/** The most ids a first walk tests when the estimates disagree. */
const PROBE = 20_000;

/** The estimated share of pins (0–1) a search matches: `likely` (independent terms) and `most`. */
export interface ShareEstimate {
  likely: number;
  most: number;
}

const plan = z.array(z.object({ Plan: z.object({ 'Plan Rows': z.number() }) }));

/** The planner's estimate of the pins up to `top` that match (0 when it gives none). */
async function estimatedMatches(db: Kysely<DB>, match: RawBuilder<boolean>, top: number): Promise<number> {
  const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) select 1 from pins p where ${match} and p.id <= ${top}`.execute(db);
  const parsed = plan.safeParse(rows[0]?.['QUERY PLAN']);
  return parsed.success ? (parsed.data[0]?.Plan['Plan Rows'] ?? 0) : 0;
}

/** How to look for `wanted` candidates among the ids up to `top`. */
export interface Approach {
  /** Walk the primary key (a dense query); else bitmap scans only. */
  walk: boolean;
  /** The id after which to look (0: everywhere). */
  from: number;
}

/** `share`: the words' estimate when there are statistics (else null: the planner is asked). */
export async function approach(db: Kysely<DB>, match: RawBuilder<boolean>, top: number, wanted: number, share: ShareEstimate | null): Promise<Approach> {
  const before = (ids: number) => Math.max(0, top - Math.ceil(ids));
  const likely = share === null ? (await estimatedMatches(db, match, top)) / Math.max(1, top) : share.likely;
  const most = share === null ? likely : share.most;
  if (share !== null && most * top <= FEW_MATCHES) return { walk: false, from: 0 };
  if (most > likely * 2) return { walk: true, from: before(Math.min(PROBE, (wanted * WINDOW_SLACK) / most)) };
  if (likely >= DENSE) return { walk: true, from: before((wanted * WALK_SLACK) / likely) };
  const aim = wanted * WINDOW_SLACK;
  const windowed = likely * top > aim && likely >= WINDOWED;
  return { walk: false, from: windowed ? before(aim / likely) : 0 };
}

/**
 * A wider window after one from `from` to `top` held only `found` of the `wanted` candidates: sized
 * by the density it showed, at most the whole range; the whole range when that density is below
 * WINDOWED (none, say: reading every match costs less than widening step by step, each step scanning
 * the words' GIN entries again).
 */
export function widen(from: number, top: number, found: number, wanted: number): number {
  const span = top - from;
  // As rare as that, every match costs less than the range bitmap of the window they would need.
  if (found < span * WINDOWED) return 0;
  const wider = Math.ceil((span * wanted * WINDOW_SLACK) / found);
  return Math.max(0, top - Math.max(wider, span * 2));
}

/** Runs a candidate query with bitmap scans only (see above), in a transaction of its own. */
export function withBitmapScans<T>(db: Kysely<DB>, run: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_indexscan = off`.execute(trx);
    return run(trx);
  });
}
