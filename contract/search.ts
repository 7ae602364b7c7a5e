import { z } from 'zod';
import { COLOR_NAMES, type ColorName, isColorName } from './colors.ts';
import { LIMITS } from './limits.ts';
import { NextCursor, PageQuery } from './paging.ts';
import { Pin } from './pins.ts';
import { SEARCH_LIMITS, SEARCH_MSG, type SearchScope } from './search-rules.ts';

// Search, the type-ahead and related pins (docs/search.md). Search and related pins page like every
// list (`limit`, `cursor`, `nextCursor`); search answers `{pins, nextCursor, widened}`, related pins
// `{pins, nextCursor}` (contract/pins.ts PinList).

/** `q`: 1 to SEARCH_LIMITS.query characters, blank refused (the empty box searches nothing). */
const searchText = z
  .string({ error: SEARCH_MSG.queryRequired })
  .max(SEARCH_LIMITS.query, { error: SEARCH_MSG.queryTooLong })
  .refine((value) => value.trim().length > 0, { error: SEARCH_MSG.queryRequired });

/**
 * `color=NAME`, repeated or comma-separated (`color=red,blue`: a pin must have every one), any case;
 * each one of COLOR_NAMES.
 */
const colorParam = z
  .union([z.string({ error: SEARCH_MSG.colorUnknown }), z.array(z.string({ error: SEARCH_MSG.colorUnknown })).max(COLOR_NAMES.length, { error: SEARCH_MSG.colorUnknown })], {
    error: SEARCH_MSG.colorUnknown,
  })
  .transform((value) =>
    [value]
      .flat()
      .flatMap((names) => names.split(','))
      .map((name) => name.trim().toLowerCase()),
  )
  .refine((names): names is ColorName[] => names.every(isColorName), { error: SEARCH_MSG.colorUnknown })
  .meta({ description: `One of ${COLOR_NAMES.join(', ')}; several (repeated or comma-separated) for pins having every one` });

/** `scope`: `mine` (the caller's own pins), `favorites` (theirs) or `board:<id>` (a board they may read). */
const scopeParam = z
  .string({ error: SEARCH_MSG.scopeInvalid })
  .transform((value, ctx): SearchScope => {
    if (value === 'mine' || value === 'favorites') return { kind: value };
    const board = /^board:([1-9][0-9]{0,9})$/.exec(value);
    const boardId = board ? Number(board[1]) : NaN;
    if (boardId <= LIMITS.maxId) return { kind: 'board', boardId };
    ctx.addIssue({ code: 'custom', message: SEARCH_MSG.scopeInvalid });
    return z.NEVER;
  })
  .meta({ description: 'mine, favorites or board:<id>; mine and favorites need a signed-in caller' });

/**
 * GET /api/search?q=: words (a pin matches all of them), "quoted phrases", -exclusions, `or` between
 * two terms and `color:NAME`. A misspelt word also matches similar words; the last word is also a
 * prefix. `color=` adds colours as `color:NAME` does (`q=color:red` alone: a colour's pins, newest
 * first); `scope=` narrows where to look.
 */
export const SearchQuery = PageQuery.extend({
  q: searchText,
  color: colorParam.optional(),
  scope: scopeParam.optional(),
});
export type SearchQuery = z.input<typeof SearchQuery>;
export type SearchParams = z.output<typeof SearchQuery>;

/** What a search answers: a page of pins, and whether a misspelt word was widened to similar ones. */
export const SearchResult = z
  .object({
    pins: z.array(Pin),
    nextCursor: NextCursor,
    /** True when a word no pin uses was matched by similar words of the vocabulary ("cofee" → coffee). */
    widened: z.boolean(),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

/** GET /api/search/suggest?q=: tags, users and colours for the last word being typed. */
export const SuggestQuery = z.object({ q: searchText });

export const TagSuggestion = z.object({ tag: z.string(), count: z.number().int() }).meta({ id: 'TagSuggestion' });
export type TagSuggestion = z.infer<typeof TagSuggestion>;

/**
 * At most SEARCH_LIMITS.suggestions tags (without `#`) by pins, most first, and users by name; the
 * colours whose name starts with the word (or with what follows `color:`), alphabetically.
 */
export const Suggestions = z
  .object({
    tags: z.array(TagSuggestion),
    users: z.array(z.object({ id: z.number().int(), username: z.string() })),
    colors: z.array(z.enum(COLOR_NAMES)).max(SEARCH_LIMITS.colorSuggestions),
  })
  .meta({ id: 'Suggestions' });
export type Suggestions = z.infer<typeof Suggestions>;
