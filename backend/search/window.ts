import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';

// Where and how a search looks for its candidates (the newest CANDIDATES matches, ./search.service.ts),
// from how many pins match: the planner's own estimate (EXPLAIN, from the statistics ANALYZE
// keeps), which costs a plan and no rows.
//
// - A large share of the pins (DENSE): walking the primary key from the newest meets enough matches
//   at once; the planner does that by itself.
// - Fewer: the GIN index finds them, and only their heap pages are read. The planner is kept to
//   bitmap scans (`withBitmapScans`): left to itself it often walks the primary key anyway (its costs
//   assume rows on disk, a cheap `@@`, and trust its estimate), testing every row: at a million
//   pins, 115,000 rows and 53 ms against 7 to 18 ms for the bitmaps, and a misspelt word that
//   matched nothing read all million rows (1.4 s) where the GIN index answered in 0.1 ms.
// - From WINDOWED to DENSE: among the newest pins only, in a window of ids sized to hold about
//   WINDOW_SLACK times the candidates needed, its matches found by and'ing the GIN bitmap with the
//   primary key's range bitmap, so a heap page is read only for a match in the window. A window
//   that held too few is widened by the density it showed (`widen`). Below WINDOWED the range
//   bitmap of the wide window it would take costs more than reading every match (at a million
//   pins, a 0.4 % word: 234,000 ids and 81 ms against 4,262 heap pages).

/** How many more matches than it needs a window is sized for (the estimate is an estimate). */
const WINDOW_SLACK = 2;
/** The share of pins matching above which the primary key walk finds the candidates soonest. */
const DENSE = 0.04;
/** The share of pins matching above which a window of recent ids is cheaper than every match. */
const WINDOWED = 0.006;

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

export async function approach(db: Kysely<DB>, match: RawBuilder<boolean>, top: number, wanted: number): Promise<Approach> {
  const estimate = await estimatedMatches(db, match, top);
  if (estimate >= top * DENSE) return { walk: true, from: 0 };
  const aim = wanted * WINDOW_SLACK;
  const windowed = estimate > aim && estimate >= top * WINDOWED;
  return { walk: false, from: windowed ? Math.max(0, top - Math.ceil((top * aim) / estimate)) : 0 };
}

/**
 * A wider window after one from `from` to `top` held only `found` of the `wanted` candidates: sized
 * by the density it showed (eight times as wide when it held none), at most the whole range.
 */
export function widen(from: number, top: number, found: number, wanted: number): number {
  const span = top - from;
  const wider = found > 0 ? Math.ceil((span * wanted * WINDOW_SLACK) / found) : span * 8;
  return Math.max(0, top - Math.max(wider, span * 2));
}

/** Runs a candidate query with bitmap scans only (see above), in a transaction of its own. */
export function withBitmapScans<T>(db: Kysely<DB>, run: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_indexscan = off`.execute(trx);
    return run(trx);
  });
}
