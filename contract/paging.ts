import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { TAG_MSG, tagParam } from './tags.ts';

// Every list call pages (docs/paging.md): `limit` (1–100, default 50) and `cursor`, the opaque string
// the previous page answered as `nextCursor` (null on the last page). Cursors are signed by the
// server; a malformed, tampered or foreign one answers 400.

/** A query-string integer: digits only (no "1.5", "1e3", "-1", " 7"), within `min`..`max`. */
export function queryInt(message: string, min: number, max: number) {
  return z
    .string({ error: message })
    .regex(/^[0-9]{1,16}$/, { error: message })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: message });
}

export const PageQuery = z.object({
  limit: queryInt(MSG.limitInvalid, 1, LIMITS.pageMax).optional(),
  cursor: z.string({ error: MSG.cursorInvalid }).min(1, { error: MSG.cursorInvalid }).max(LIMITS.cursorMax, { error: MSG.cursorInvalid }).optional(),
});
/** What a client sends. */
export type PageQuery = z.input<typeof PageQuery>;
/** What the server reads once the query is validated. */
export type PageParams = z.output<typeof PageQuery>;

/**
 * GET /api/pins/: `order=newest` (default) or `order=shuffle&seed=S`, a permutation fixed by S of
 * the pins that existed when page one was served; `userId=N` lists one user's pins, newest first;
 * `tag=x` a tag's pins, newest first.
 */
export const PinListQuery = PageQuery.extend({
  order: z.enum(['newest', 'shuffle'], { error: MSG.orderInvalid }).optional(),
  seed: queryInt(MSG.seedInvalid, 0, LIMITS.maxId).optional(),
  userId: queryInt(MSG.invalidId, 1, LIMITS.maxId).optional(),
  /** A tag's pins, newest first (case-insensitive, without `#`). */
  tag: tagParam.optional(),
}).superRefine((query, ctx) => {
  if (query.order === 'shuffle' && query.seed === undefined) ctx.addIssue({ code: 'custom', path: ['seed'], message: MSG.seedRequired });
  if (query.order === 'shuffle' && query.userId !== undefined) ctx.addIssue({ code: 'custom', path: ['userId'], message: MSG.userIdWithShuffle });
  if (query.tag !== undefined && (query.order === 'shuffle' || query.userId !== undefined)) ctx.addIssue({ code: 'custom', path: ['tag'], message: TAG_MSG.tagWithOtherFilter });
});
export type PinListQuery = z.input<typeof PinListQuery>;
export type PinListParams = z.output<typeof PinListQuery>;

/** `nextCursor` of every page: the string to send as `cursor` for the next page, null on the last. */
export const NextCursor = z.string().nullable();
