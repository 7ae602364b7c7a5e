// The keys of the search screens' paged lists (../state/lists.ts): one list per query, tag and pin.
export const SEARCH_LIST = {
  results: (query: string) => `search:${query}`,
  tag: (tag: string) => `tag:${tag}`,
  related: (pinId: number) => `related:${pinId}`,
} as const;
