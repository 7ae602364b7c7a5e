import { z } from 'zod';
import { LIMITS } from '../../contract/limits.ts';
import type { CursorCodec } from './cursor.ts';

/**
 * Keyset paging over an increasing integer key, newest (largest) first: a page is
 * `WHERE key < before ORDER BY key DESC LIMIT limit + 1`, served straight from an index at any
 * depth (no OFFSET). The extra row only tells whether there is a next page.
 */
export interface Keyset {
  limit: number;
  /** The key of the last item of the previous page; undefined on page one. */
  before: number | undefined;
  /** Cuts the `limit + 1` rows fetched to a page and signs the cursor of the next one. */
  finish<T>(rows: T[], keyOf: (row: T) => number): { items: T[]; nextCursor: string | null };
}

const lastKey = z.number().int().positive();

export function keyset(cursors: CursorCodec, scope: string, query: { limit?: number | undefined; cursor?: string | undefined }): Keyset {
  const limit = query.limit ?? LIMITS.pageDefault;
  return {
    limit,
    before: query.cursor === undefined ? undefined : cursors.decode(scope, query.cursor, lastKey),
    finish(rows, keyOf) {
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last !== undefined ? cursors.encode(scope, keyOf(last)) : null };
    },
  };
}
