import { z } from 'zod';
import { PageQuery } from './paging.ts';
import { SEARCH_LIMITS, SEARCH_MSG } from './search-rules.ts';

// Search, the type-ahead and related pins (docs/search.md). Search and related pins page like every
// list (`limit`, `cursor`, `nextCursor`) and answer `{pins, nextCursor}` (contract/pins.ts PinList).

/** `q`: 1 to SEARCH_LIMITS.query characters, blank refused (the empty box searches nothing). */
const searchText = z
  .string({ error: SEARCH_MSG.queryRequired })
  .max(SEARCH_LIMITS.query, { error: SEARCH_MSG.queryTooLong })
  .refine((value) => value.trim().length > 0, { error: SEARCH_MSG.queryRequired });

/**
 * GET /api/search?q=: words (a pin matches all of them), "quoted phrases", -exclusions and `or`
 * between two terms. A misspelt word also matches similar words; the last word is also a prefix.
 */
export const SearchQuery = PageQuery.extend({ q: searchText });
export type SearchQuery = z.input<typeof SearchQuery>;
export type SearchParams = z.output<typeof SearchQuery>;

/** GET /api/search/suggest?q=: tags and users for the last word being typed. */
export const SuggestQuery = z.object({ q: searchText });

export const TagSuggestion = z.object({ tag: z.string(), count: z.number().int() }).meta({ id: 'TagSuggestion' });
export type TagSuggestion = z.infer<typeof TagSuggestion>;

/** At most SEARCH_LIMITS.suggestions of each: tags (without `#`) by pins, most first; users by name. */
export const Suggestions = z
  .object({
    tags: z.array(TagSuggestion),
    users: z.array(z.object({ id: z.number().int(), username: z.string() })),
  })
  .meta({ id: 'Suggestions' });
export type Suggestions = z.infer<typeof Suggestions>;
