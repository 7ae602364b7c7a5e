import { ENDPOINTS } from '../../contract/endpoints.ts';
import { cacheTags, sendCached } from '../http/read-cache.ts';
import { callerOf } from '../http/public-reads.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { unlessNotFound } from '../errors.ts';
import { withIdempotency } from '../idempotency/idempotency.ts';
import { createComment, deleteComment, listComments, updateComment } from './comments.service.ts';

export const commentRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/comments/pins/{pinId}/comments'], {
    summary: "A page of a pin's comments, newest first (a private pin's only for those who may see it)",
    auth: 'public',
    cached: true,
    errors: [404],
    handler: async ({ ctx, cursors, reads, req, res, params, query, userId }) => {
      const read = await reads
        .read(`comments:${params.pinId}:${query.limit ?? ''}:${query.cursor ?? ''}`, {
          load: () => listComments(ctx.db, cursors, params.pinId, query, undefined),
          tags: () => [cacheTags.comments(params.pinId)],
        })
        .catch(unlessNotFound);
      if (read) return sendCached(req, res, read);
      // Not a public pin: its comments are for those who may see it, never from the cache.
      res.json(await listComments(ctx.db, cursors, params.pinId, query, callerOf(req, userId)));
    },
  }),

  route(ENDPOINTS['POST /api/comments/pins/{pinId}/comments'], {
    summary: 'Comment on a pin (once per pin)',
    auth: 'user',
    errors: [404, 409],
    handler: async ({ ctx, req, res, params, body, userId, operation }) => {
      await withIdempotency(ctx, req, res, {
        operation,
        userId,
        input: body,
        status: 201,
        run: (txCtx) => createComment(txCtx, userId, params.pinId, body.text),
      });
    },
  }),

  route(ENDPOINTS['PUT /api/comments/{id}'], {
    summary: 'Edit your comment',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, body, userId }) => {
      res.json(await updateComment(ctx, userId, params.id, body.text));
    },
  }),

  route(ENDPOINTS['DELETE /api/comments/{id}'], {
    summary: 'Delete your comment',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      const { pinId } = await deleteComment(ctx, userId, params.id);
      res.json({ message: 'Comment deleted', id: params.id, pin_id: pinId });
    },
  }),
];
