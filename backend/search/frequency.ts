import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

// How common each word (lexeme) of the pins' search vectors is, to choose how a search looks for its
// candidates (./window.ts). Not counted on write and kept nowhere of ours: ANALYZE (autovacuum's,
// or the seed's) samples pins.search and keeps its commonest lexemes with the share of pins holding
// each (pg_stats.most_common_elems / most_common_elem_freqs, up to ten times the statistics target
// of them, 1,000 by default), and the smallest share it kept: a lexeme not in the list is rarer
// than that. An approximation (a sample of 30,000 rows), which is all a plan choice needs, and no
// pin insert writes or locks anything for it.
//
// Reading pg_stats costs a few milliseconds (the view checks privileges and the list is unnested),
// so each database handle keeps what it read for REFRESH_MS; the statistics change only when
// ANALYZE runs again.

const REFRESH_MS = 60_000;

export interface LexemeShares {
  /** The share of pins holding each of the commonest lexemes. */
  shares: Map<string, number>;
  /** The smallest share in the list: a lexeme not in it is held by fewer pins than that. */
  floor: number;
  /** The same for the named colours of pins.colors (empty, floor null: not sampled). */
  colors: Map<string, number>;
  colorFloor: number | null;
}

const cache = new WeakMap<Kysely<DB>, { at: number; read: Promise<LexemeShares | null> }>();

/** The lexeme shares of pins.search, or null when ANALYZE has not sampled it yet. */
export function lexemeShares(db: Kysely<DB>): Promise<LexemeShares | null> {
  const held = cache.get(db);
  if (held && performance.now() - held.at < REFRESH_MS) return held.read;
  const read = readShares(db).catch((error: unknown) => {
    cache.delete(db);
    throw error;
  });
  cache.set(db, { at: performance.now(), read });
  return read;
}

/** Drops what was read, so the next search reads the statistics again (after an ANALYZE). */
export function forgetLexemeShares(db: Kysely<DB>): void {
  cache.delete(db);
}

interface StatsRow {
  attname: string;
  elems: string[] | null;
  freqs: number[] | null;
}

/** Each element's share, and the smallest (the list of frequencies goes on with it after the elements'). */
function sharesOf(row: StatsRow | undefined): { shares: Map<string, number>; floor: number } | null {
  if (!row?.elems?.length || !row.freqs) return null;
  const freqs = row.freqs;
  const shares = new Map(row.elems.map((elem, i) => [elem, freqs[i] ?? 0]));
  return { shares, floor: freqs[row.elems.length] ?? Math.min(...shares.values()) };
}

async function readShares(db: Kysely<DB>): Promise<LexemeShares | null> {
  const { rows } = await sql<StatsRow>`
    select attname::text as attname, most_common_elems::text::text[] as elems, most_common_elem_freqs as freqs
    from pg_stats where schemaname = current_schema() and tablename = 'pins' and attname in ('search', 'colors')`.execute(db);
  const words = sharesOf(rows.find((row) => row.attname === 'search'));
  if (!words) return null;
  const colors = sharesOf(rows.find((row) => row.attname === 'colors'));
  return { ...words, colors: colors?.shares ?? new Map(), colorFloor: colors?.floor ?? null };
}
