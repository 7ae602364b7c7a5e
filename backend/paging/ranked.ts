import { z } from 'zod';
import { LIMITS } from '../../contract/limits.ts';
import type { CursorCodec } from './cursor.ts';

/**
 * Keyset paging over a ranked list: best first by an integer score, then by id (largest first), so
 * every item has one place. A page is the items after the previous page's last (score, id):
 * `WHERE (score, id) < (s, i) ORDER BY score DESC, id DESC LIMIT limit + 1`, never an OFFSET. Scores
 * are integers so that the cursor carries them exactly. The ids the list considers, `from` (exclusive)
 * to `top`, are fixed at page one and kept from page to page: items created later join on the next
 * page one, not in the middle of a walk.
 */
export interface RankedKeyset {
  limit: number;
  /** The previous page's last item; undefined on page one. */
  after: RankedPosition | undefined;
  /** Cuts the `limit + 1` rows fetched to a page and signs the cursor of the next one. */
  finish<T extends { score: number; id: number }>(rows: T[], range: IdRange): { items: T[]; nextCursor: string | null };
}

/** The ids a ranked list considers: from (exclusive) to top (inclusive). */
export interface IdRange {
  from: number;
  top: number;
}

export interface RankedPosition extends IdRange {
  score: number;
  id: number;
}

const position = z.object({
  score: z.number().int(),
  id: z.number().int().positive(),
  from: z.number().int().nonnegative(),
  top: z.number().int().nonnegative(),
});

export function rankedKeyset(cursors: CursorCodec, scope: string, query: { limit?: number | undefined; cursor?: string | undefined }): RankedKeyset {
  const limit = query.limit ?? LIMITS.pageDefault;
  return {
    limit,
    after: query.cursor === undefined ? undefined : cursors.decode(scope, query.cursor, position),
    finish(rows, range) {
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? cursors.encode(scope, { score: last.score, id: last.id, from: range.from, top: range.top }) : null };
    },
  };
}
