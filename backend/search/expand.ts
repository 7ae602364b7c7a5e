import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { type LexemeShares, lexemeShares } from './frequency.ts';
import { type ParsedQuery, plainWord, type Term } from './query.ts';

// Turns a parsed query into text-search queries (tsquery), in one round trip. Each term becomes
// Postgres' own tsquery for it (plainto_tsquery for a word, phraseto_tsquery for a phrase, with the
// english configuration the stored vector uses, so "mountains" finds "mountain"), and a plain word
// also gets:
// - look-alikes, when it is not a word any pin uses: up to TYPO_ALTERNATIVES words of the
//   vocabulary (search_words) with the most trigrams in common and about its length ("cofee" →
//   coffee). Word by word, never against a whole title.
// - a prefix, when it is the last word (the reader may still be typing it: "mount" → mountains),
//   unless it is a complete word and the words it begins are common (./frequency.ts): a prefix
//   cannot skip through the index's lists as a word does, so `home:*` would collect every pin of
//   every word starting with "home" (18 % of a million pins), for pins the word itself mostly finds.
// - the users it names: a word that is a username also matches that user's pins (ranked lowest).
// The pieces come back as tsquery text (Postgres' output, so valid tsquery syntax) and are joined
// here with `|`, `&` and `!`; the user's text itself never becomes tsquery syntax.

/** Words expanded (look-alikes, authors) per query; the others match as they are. */
const EXPANDED_WORDS = 8;
const TYPO_ALTERNATIVES = 3;
/**
 * How alike a look-alike must be: trigrams in common (pg_trgm similarity; "mountian" and mountain
 * share 0.38, "ceraimc" and ceramic 0.33, "cofee" and coffee 0.63) and at most this many letters more or fewer (a typo, not
 * another word: "mount" is not a misspelt "mountains", nor a word glued from three a misspelt one).
 */
const TYPO_SIMILARITY = 0.3;
const TYPO_LENGTH_DIFFERENCE = 2;
const TYPO_MIN_LENGTH = 4;
const PREFIX_MIN_LENGTH = 3;
/**
 * A complete last word is not also a prefix when the words it begins are held by this share of
 * the pins or more (at a million pins, 10,000 pins' entries for the index to collect).
 */
export const PREFIX_COMMON_SHARE = 0.01;

/** One condition: a pin matches its tsquery, or (when it names users) is by one of them. */
export interface ExpandedClause {
  tsquery: string;
  authorIds: number[];
}

export interface ExpandedQuery {
  /** Conditions a pin must meet (terms that are only stop words are gone). */
  clauses: ExpandedClause[];
  /** What a pin must not match, each (empty when there is nothing to exclude). */
  exclusions: string[];
  /** Whether a word no pin uses was widened to look-alikes (the answer's `widened`). */
  widened: boolean;
}

interface TermInput {
  i: number;
  term: string;
  phrase: boolean;
  /** The plain word, lower-cased, when look-alikes, a prefix or authors may apply. */
  word: string | null;
  typo: boolean;
  prefix: boolean;
}

interface TermRow {
  i: number;
  exact: string;
  similar: string | null;
  prefix: string | null;
  /** Whether the word is one the pins use (search_words): typed whole, not half-way. */
  known: boolean;
  authors: number[];
}

/** The share of pins holding a word that begins with `word`, as far as the statistics know. */
function prefixShare(stats: LexemeShares, word: string): number {
  let share = 0;
  for (const [lexeme, held] of stats.shares) if (lexeme.startsWith(word)) share += held;
  return share;
}

export async function expandQuery(db: Kysely<DB>, parsed: ParsedQuery): Promise<ExpandedQuery> {
  const terms: Term[] = [...parsed.clauses.flatMap((clause) => clause.anyOf), ...parsed.exclusions];
  const positives = terms.length - parsed.exclusions.length;
  let expanded = 0;
  const inputs: TermInput[] = terms.map((term, i) => {
    const word = i < positives && term.kind === 'word' && expanded < EXPANDED_WORDS ? plainWord(term.text) : null;
    if (word !== null) expanded += 1;
    const length = word === null ? 0 : [...word].length;
    return {
      i,
      term: term.text,
      phrase: term.kind === 'phrase',
      word,
      typo: length >= TYPO_MIN_LENGTH && /\p{L}/u.test(word ?? ''),
      prefix: length >= PREFIX_MIN_LENGTH && term === parsed.lastWord,
    };
  });
  const { rows } = await sql<TermRow>`
    select t.i,
      (case when t.phrase then phraseto_tsquery('english', t.term) else plainto_tsquery('english', t.term) end)::text as exact,
      case when t.typo and not k.known then (
        select to_tsquery('english', string_agg(alike.word, ' | '))::text
        from (
          select s.word from search_words s
          where s.word % t.word and abs(length(s.word) - length(t.word)) <= ${TYPO_LENGTH_DIFFERENCE} and similarity(s.word, t.word) >= ${TYPO_SIMILARITY}
          order by similarity(s.word, t.word) desc, s.word limit ${TYPO_ALTERNATIVES}
        ) as alike
      ) end as similar,
      case when t.prefix then to_tsquery('simple', t.word || ':*')::text end as prefix,
      k.known,
      case when t.word is null then '{}'::int[] else array(select u.id from users u where lower(u.username) = t.word) end as authors
    -- The limit tells the planner how many terms there are (a function's rows are guessed at 100),
    -- which keeps its cost estimate, hence JIT compiling (half a second), out of a few-term query.
    from (select * from jsonb_to_recordset(${JSON.stringify(inputs)}::jsonb) as t (i integer, term text, phrase boolean, word text, typo boolean, prefix boolean) limit ${inputs.length}) as t
    -- Whether the word is in the vocabulary: read once, for the look-alikes and for the prefix.
    cross join lateral (select t.word is not null and exists (select 1 from search_words s where s.word = t.word) as known) as k
    order by t.i`.execute(db);

  const stats = await lexemeShares(db);
  // A stop word ("but") finds nothing itself, yet is complete: its prefix is the same bet.
  const complete = (row: TermRow) => row.known || row.exact === '';
  const prefixOf = (row: TermRow) => {
    const word = inputs[row.i]?.word;
    if (row.prefix === null || !word || !stats || !complete(row)) return row.prefix;
    return prefixShare(stats, word) >= PREFIX_COMMON_SHARE ? null : row.prefix;
  };
  const termQuery = (row: TermRow | undefined) =>
    row
      ? [row.exact, row.similar, prefixOf(row)]
          .filter((part): part is string => !!part)
          .map((part) => `(${part})`)
          .join(' | ')
      : '';
  const clauses: ExpandedClause[] = [];
  let at = 0;
  for (const clause of parsed.clauses) {
    const own = rows.slice(at, at + clause.anyOf.length);
    at += clause.anyOf.length;
    const tsquery = own
      .map(termQuery)
      .filter(Boolean)
      .map((part) => `(${part})`)
      .join(' | ');
    const authorIds = [...new Set(own.flatMap((row) => row.authors))];
    if (tsquery || authorIds.length) clauses.push({ tsquery, authorIds });
  }
  const exclusions = rows.slice(at).flatMap((row) => (row.exact ? [row.exact] : []));
  return { clauses, exclusions, widened: rows.some((row) => row.similar !== null) };
}
