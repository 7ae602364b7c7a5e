import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { SKEW, TAGS, WORDS } from './words.ts';

// The searchable text of the benchmark's pins, in SQL (generate_series, no round trips): a title of
// three words, a description of 4 to 10 words and 0 to 4 #tags (none on every sixth pin, whose
// description is empty), drawn from bench/feed/words.ts with a power-law skew. Each draw is a
// multiplicative hash of (row, slot), so the same sizes give the same text. `tags` is written with
// the description, in the order the tags appear in it, as the server's parser would store them
// (contract/tags.ts); pin_tags, the tag counts and the vocabulary are then filled in bulk, since
// the bulk load runs without the triggers that keep them.

/** A uniform number in [0, 1) from an integer expression (Knuth's multiplicative hash), as float8. */
const uniform = (expr: string) => `(((((${expr})::bigint * 2654435761) % 4294967296) + 0.5) / 4294967296.0)::float8`;
/** A skewed draw from a SQL array of n items for slot `slot` (0–31) of row `row`. */
const draw = (list: RawBuilder<unknown>, n: number, row: string, slot: string) => sql`(${list})[1 + floor(${n}::float8 * power(${sql.raw(uniform(`${row} * 32 + ${slot}`))}, ${SKEW}::float8))::int]`;

const words = sql`${WORDS}::text[]`;
const tags = sql`${TAGS}::text[]`;

/** The title of row i. */
export const titleOf = (i: string) => sql`initcap(${draw(words, WORDS.length, i, '0')}) || ' ' || ${draw(words, WORDS.length, i, '1')} || ' ' || ${draw(words, WORDS.length, i, '2')}`;

/**
 * A lateral subquery giving row i's `description` and `tags` (alias it). Tags use slots 20–23 and
 * each appears once, at its first draw.
 */
export const textOf = (i: string) => sql`(
  select
    case when ${sql.raw(i)} % 6 = 0 then '' else concat_ws(' ', body.text, tagged.text) end as description,
    case when ${sql.raw(i)} % 6 = 0 then '{}'::text[] else coalesce(tagged.tags, '{}'::text[]) end as tags
  from (
    select string_agg(${draw(words, WORDS.length, i, 'j')}, ' ' order by j) as text
    from generate_series(3, 3 + 3 + ${sql.raw(i)} % 7) as j
  ) as body,
  (
    select array_agg(t order by first) as tags, string_agg('#' || t, ' ' order by first) as text
    from (
      select t, min(j) as first
      from (select j, ${draw(tags, TAGS.length, i, 'j')} as t from generate_series(20, 19 + (${sql.raw(i)} / 5) % 5) as j) as drawn
      group by t
    ) as distinct_tags
  ) as tagged
)`;

type Step = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/** pin_tags (in key order, so its primary key is appended to), tags with their counts, and the vocabulary. */
export async function loadSearchTables(db: Kysely<DB>, step: Step): Promise<void> {
  await step('pin_tags', () => sql`insert into pin_tags (tag, pin_id) select t, id from pins, unnest(tags) as t order by 1, 2`.execute(db));
  await step('tags', () => sql`insert into tags (tag, pin_count) select tag, count(*)::int from pin_tags group by tag`.execute(db));
  await step('search_words', () =>
    sql`
    insert into search_words (word)
    select distinct lexeme from pins, unnest(to_tsvector('simple'::regconfig, title || ' ' || description))
    where length(lexeme) between 3 and 40 and lexeme !~ '[[:space:][:punct:]]'`.execute(db),
  );
}
