// No zod here: the web client imports these, and zod would weigh on its first script
// (the schemas are in search.ts).
import { COLOR_NAMES } from './colors.ts';

export const SEARCH_LIMITS = {
  /** Longest query, in characters. */
  query: 200,
  /** Tags and users the type-ahead answers, each. */
  suggestions: 8,
  /** Colours the type-ahead answers (all of them, at most). */
  colorSuggestions: COLOR_NAMES.length,
} as const;

export const SEARCH_MSG = {
  queryRequired: 'Type something to search for.',
  queryTooLong: `A search may be at most ${SEARCH_LIMITS.query} characters.`,
  colorUnknown: `A colour must be one of ${COLOR_NAMES.join(', ')}.`,
  scopeInvalid: 'A scope must be mine, favorites or board:<id>.',
  scopeNeedsSignIn: 'Sign in to search your own pins or favorites.',
} as const;

/** Where a search looks: every public pin (no scope), or one of these. */
export type SearchScope = { kind: 'mine' } | { kind: 'favorites' } | { kind: 'board'; boardId: number };

/** `color:NAME` (or `colour:NAME`) in a query: the name, lower-cased; null for any other word. */
export function colorFilterName(word: string): string | null {
  const match = /^colou?r:(.*)$/iu.exec(word);
  return match ? (match[1] ?? '').toLowerCase() : null;
}
