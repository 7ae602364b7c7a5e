import { type Kysely, sql } from 'kysely';
import { COLOR_NAMES } from '../../contract/colors.ts';
import type { Suggestions } from '../../contract/search.ts';
import { colorFilterName, SEARCH_LIMITS } from '../../contract/search-rules.ts';
import { normalizeTag } from '../../contract/tag-rules.ts';
import type { DB } from '../../db/schema.ts';
import { searchUsers } from '../users/user-search.service.ts';
import { parseQuery, plainWord } from './query.ts';

// GET /api/search/suggest (docs/search.md): the type-ahead under the search box, for the last word
// being typed. Tags whose name starts with it, most used first (a range scan of tags_prefix, sorted
// by the pin_count column: no counting on read), topped up with tags that look like it (pg_trgm)
// when the prefix finds few; users whose name starts with it; and the colours whose name starts
// with it, or with what follows `color:` (then only colours: "color:r" is no tag nor user).

const TYPO_MIN_LENGTH = 3;
/** `%`, `_` and `\` stand for themselves in a LIKE prefix. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Letters a plain word needs before colours are offered for it (one letter would offer many). */
const COLOR_MIN_LENGTH = 2;

export async function suggest(db: Kysely<DB>, q: string): Promise<Suggestions> {
  const lastToken = /\S+$/u.exec(q.normalize('NFKC'))?.[0] ?? '';
  const colorPrefix = colorFilterName(lastToken);
  if (colorPrefix !== null) return { tags: [], users: [], colors: colorsStartingWith(colorPrefix) };
  const last = parseQuery(q).lastWord;
  const word = last && plainWord(last.text.replace(/^#/, ''));
  if (!word) return { tags: [], users: [], colors: [] };
  const [tags, users] = await Promise.all([suggestTags(db, word), searchUsers(db, word)]);
  const colors = [...word].length >= COLOR_MIN_LENGTH && !last.text.startsWith('#') ? colorsStartingWith(word) : [];
  return { tags, users: users.users.slice(0, SEARCH_LIMITS.suggestions), colors };
}

/** In alphabetical order, as the other suggestions of a prefix read. */
const COLORS_BY_NAME = [...COLOR_NAMES].sort();

function colorsStartingWith(prefix: string): Suggestions['colors'] {
  return COLORS_BY_NAME.filter((name) => name.startsWith(prefix)).slice(0, SEARCH_LIMITS.colorSuggestions);
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
