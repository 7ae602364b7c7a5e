import type { ChangeEntry } from './changes.ts';

// The paging rule of GET /api/changes (contract/changes.ts), without zod: the web client imports it,
// and zod would weigh on its first script.

/** At most this many changes per answer; a client asks again from the answer's `lastSeq`. */
export const CHANGES_PAGE_MAX = 1_000;

/** Where a reader's cursor goes after a page of changes, and whether to ask again from it. */
export function afterPage(page: { changes: readonly ChangeEntry[]; lastSeq: number }): { cursor: number; more: boolean } {
  const last = page.changes.at(-1);
  const cursor = page.changes.length === CHANGES_PAGE_MAX && last ? last.seq : page.lastSeq;
  return { cursor, more: cursor < page.lastSeq };
}
