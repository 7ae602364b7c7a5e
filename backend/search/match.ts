import { type RawBuilder, sql } from 'kysely';
import type { ColorName } from '../../contract/colors.ts';
import type { ExpandedQuery } from './expand.ts';

// The SQL of a search (docs/search.md), from its expanded query: which pins match, and how they rank.

/** What a search keeps besides its words: the pins of its scope (./scope.ts) having all its colours. */
export interface SearchFilters {
  /** Over `pins p`: the public pins, or the scope's (which may hold the reader's private pins). */
  scope: RawBuilder<boolean>;
  colors: ColorName[];
}

/** ts_rank's weights for D, C, B, A: a title hit outranks any number of description hits. */
const WEIGHTS = '{0.05, 0.2, 0.4, 1.0}';
/** Added for a pin by a user the query names: below a single tag hit (0.2 / terms). */
const AUTHOR_BONUS = 0.05;

/**
 * The WHERE clause over `pins p`: clauses that name no user go into one tsquery (one GIN scan); a
 * clause that names users is its own `(search @@ … or user_id = any(…))`, a GIN scan or'ed with the
 * pins_user_id_idx scan. Null when nothing could match (stop words only).
 */
export function matchCondition(expanded: ExpandedQuery, filters: SearchFilters): RawBuilder<boolean> | null {
  const textOnly = expanded.clauses.filter((clause) => clause.authorIds.length === 0).map((clause) => `(${clause.tsquery})`);
  const withAuthors = expanded.clauses.filter((clause) => clause.authorIds.length > 0);
  if (textOnly.length === 0 && withAuthors.length === 0) return null;
  const parts: RawBuilder<boolean>[] = [];
  if (textOnly.length) parts.push(sql<boolean>`p.search @@ ${textOnly.join(' & ')}::tsquery`);
  for (const clause of withAuthors) {
    const byAuthor = sql<boolean>`p.user_id = any(${clause.authorIds}::int[])`;
    parts.push(clause.tsquery ? sql<boolean>`(p.search @@ ${clause.tsquery}::tsquery or ${byAuthor})` : byAuthor);
  }
  return filterCondition(filters, expanded.exclusions, parts);
}

/**
 * The scope, the colours and the exclusions, and'ed with `parts` (the words' conditions; none for a
 * colour's pins alone).
 */
export function filterCondition(filters: SearchFilters, exclusions: string[], parts: RawBuilder<boolean>[] = []): RawBuilder<boolean> {
  // Without a scope search finds public pins only (docs/who-sees-what.md); the search and colour
  // indexes hold only those, and the planner takes them for a query that says so.
  const all = [filters.scope, ...parts];
  // `@>` is what the GIN index on pins.colors answers.
  if (filters.colors.length) all.push(sql<boolean>`p.colors @> ${filters.colors}::text[]`);
  // A filter on what the conditions above found, never an index condition of its own: a bare
  // negation would read the whole index.
  if (exclusions.length) all.push(sql<boolean>`not (p.search @@ ${exclusions.map((x) => `(${x})`).join(' | ')}::tsquery)`);
  return sql.join(all, sql` and `) as RawBuilder<boolean>;
}

/** ts_rank over the stored vector (no re-tokenizing), plus the author bonus; a float8. */
export function rankExpression(expanded: ExpandedQuery): RawBuilder<number> {
  const all = expanded.clauses
    .filter((clause) => clause.tsquery)
    .map((clause) => `(${clause.tsquery})`)
    .join(' & ');
  const authorIds = [...new Set(expanded.clauses.flatMap((clause) => clause.authorIds))];
  const text = all ? sql`ts_rank(${WEIGHTS}::float4[], p.search, ${all}::tsquery)::float8` : sql`0::float8`;
  return authorIds.length ? sql<number>`(${text} + case when p.user_id = any(${authorIds}::int[]) then ${AUTHOR_BONUS}::float8 else 0 end)` : sql<number>`${text}`;
}
