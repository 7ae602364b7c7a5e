import { Router } from 'express';
import { CommentBody } from '../../contract/comments.ts';
import { PageQuery } from '../../contract/paging.ts';
import { requireUser, userIdOf } from '../auth/require-user.ts';
import type { ServiceContext } from '../context.ts';
import { parseBody, parseId, parseQuery } from '../http/validate.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { withIdempotency } from '../idempotency/idempotency.ts';
import { createComment, deleteComment, listComments, updateComment } from './comments.service.ts';

export function commentsRouter(ctx: ServiceContext, deps: { cursors: CursorCodec }): Router {
  const router = Router();

  router.get('/pins/:pinId/comments', async (req, res) => {
    const pinId = parseId(req, 'pinId');
    res.json(await listComments(ctx.db, deps.cursors, pinId, parseQuery(PageQuery, req)));
  });

  router.post('/pins/:pinId/comments', requireUser, async (req, res) => {
    const pinId = parseId(req, 'pinId');
    const { text } = parseBody(CommentBody, req);
    const userId = userIdOf(req);
    await withIdempotency(ctx, req, res, {
      operation: `POST /api/comments/pins/${pinId}/comments`,
      input: { text },
      status: 201,
      run: (txCtx) => createComment(txCtx, userId, pinId, text),
    });
  });

  router.put('/:id', requireUser, async (req, res) => {
    const id = parseId(req, 'id');
    const { text } = parseBody(CommentBody, req);
    res.json(await updateComment(ctx, userIdOf(req), id, text));
  });

  router.delete('/:id', requireUser, async (req, res) => {
    const id = parseId(req, 'id');
    const { pinId } = await deleteComment(ctx, userIdOf(req), id);
    res.json({ message: 'Comment deleted', id, pin_id: pinId });
  });

  return router;
}
