// No zod here: the web client imports these, and zod would weigh on its first script
// (the schemas are in search.ts).

export const SEARCH_LIMITS = {
  /** Longest query, in characters. */
  query: 200,
  /** Tags and users the type-ahead answers, each. */
  suggestions: 8,
} as const;

export const SEARCH_MSG = {
  queryRequired: 'Type something to search for.',
  queryTooLong: `A search may be at most ${SEARCH_LIMITS.query} characters.`,
} as const;
