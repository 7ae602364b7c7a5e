import { DuplicatePins } from '../../contract/duplicates.ts';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { notFound } from '../errors.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { withIdempotentWrite } from '../idempotency/idempotency.ts';
import { canSeePin } from '../visibility/pin-access.ts';
import { duplicateGroups } from './duplicate-groups.ts';
import { duplicatePinIds, pictureOfPin, pinsByIds } from './find-duplicates.ts';
import { mergePins, undoMerge } from './merge.ts';

// Duplicates among the caller's own pins (docs/duplicates.md).
export const duplicateRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/pins/{id}/duplicates'], {
    summary: "Your own pins that look like this pin (same or nearly the same picture, mirrored too): ≤ 10, newest first, never the pin itself; on someone else's pin, your pins that look like it",
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      if (!(await canSeePin(ctx.db, userId, params.id))) throw notFound('Pin');
      const picture = await pictureOfPin(ctx.db, params.id);
      const ids = picture ? await duplicatePinIds(ctx.db, userId, picture, { except: params.id }) : [];
      res.json({ pins: await pinsByIds(ctx.db, ids) } satisfies DuplicatePins);
    },
  }),

  route(ENDPOINTS['GET /api/duplicates'], {
    summary: 'Groups of your pins with the same or nearly the same picture, newest first (a page walks a stretch of your pins: it may hold no group and still have a nextCursor)',
    auth: 'user',
    handler: async ({ ctx, cursors, res, query, userId }) => {
      res.json(await duplicateGroups(ctx.db, cursors, userId, query));
    },
  }),

  route(ENDPOINTS['POST /api/duplicates/merge'], {
    summary: 'Merge your duplicate pins into one: the pin kept takes their boards, favorites and comments, and they are deleted (undo within 15 minutes)',
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, req, res, body, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: body,
        run: async (txCtx) => ({ status: 200, body: await mergePins(txCtx, userId, body) }),
      });
    },
  }),

  route(ENDPOINTS['POST /api/duplicates/merge/undo'], {
    summary: 'Undo your merge: the merged pins come back with their boards, favorites and comments (409 once 15 minutes have passed)',
    auth: 'user',
    errors: [403, 404, 409],
    handler: async ({ ctx, res, body, userId }) => {
      res.json(await undoMerge(ctx, userId, body.mergeId));
    },
  }),
];
