import { type Kysely, sql } from 'kysely';
import type { Suggestions } from '../../contract/search.ts';
import { SEARCH_LIMITS } from '../../contract/search-rules.ts';
import { normalizeTag } from '../../contract/tag-rules.ts';
import type { DB } from '../../db/schema.ts';
import { searchUsers } from '../users/user-search.service.ts';
import { parseQuery, plainWord } from './query.ts';

// GET /api/search/suggest (docs/search.md): the type-ahead under the search box, for the last word
// being typed. Tags whose name starts with it, most used first (a range scan of tags_prefix, sorted
// by the pin_count column: no counting on read), topped up with tags that look like it (pg_trgm)
// when the prefix finds few; and users whose name starts with it.

const TYPO_MIN_LENGTH = 3;
/** `%`, `_` and `\` stand for themselves in a LIKE prefix. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function suggest(db: Kysely<DB>, q: string): Promise<Suggestions> {
  const last = parseQuery(q).lastWord;
  const word = last && plainWord(last.text.replace(/^#/, ''));
  if (!word) return { tags: [], users: [] };
  const [tags, users] = await Promise.all([suggestTags(db, word), searchUsers(db, word)]);
  return { tags, users: users.users.slice(0, SEARCH_LIMITS.suggestions) };
}

async function suggestTags(db: Kysely<DB>, word: string): Promise<Suggestions['tags']> {
  const tag = normalizeTag(word);
  if (tag === null) return [];
  const max = SEARCH_LIMITS.suggestions;
  const { rows } = await sql<{ tag: string; count: number }>`
    select tag, pin_count as count from tags
    where tag like ${`${escapeLike(tag)}%`} and pin_count > 0
    order by pin_count desc, tag limit ${max}`.execute(db);
  if (rows.length === max || [...tag].length < TYPO_MIN_LENGTH) return rows;
  const { rows: alike } = await sql<{ tag: string; count: number }>`
    select tag, pin_count as count from tags
    where tag % ${tag} and pin_count > 0 and not (tag like ${`${escapeLike(tag)}%`})
    order by similarity(tag, ${tag}) desc, pin_count desc, tag limit ${max - rows.length}`.execute(db);
  return [...rows, ...alike];
}
