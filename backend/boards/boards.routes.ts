import { Router } from 'express';
import { BoardBody } from '../../contract/boards.ts';
import { PageQuery } from '../../contract/paging.ts';
import { PinRefBody } from '../../contract/pins.ts';
import { requireUser, userIdOf } from '../auth/require-user.ts';
import type { ServiceContext } from '../context.ts';
import { parseBody, parseId, parseQuery } from '../http/validate.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { withIdempotency } from '../idempotency/idempotency.ts';
import {
  addPinToBoard,
  createBoard,
  deleteBoard,
  getBoardPage,
  listBoards,
  removePinFromBoard,
  renameBoard,
} from './boards.service.ts';

export function boardsRouter(ctx: ServiceContext, deps: { cursors: CursorCodec }): Router {
  const router = Router();
  router.use(requireUser);

  router.get('/', async (req, res) => {
    res.json(await listBoards(ctx.db, deps.cursors, userIdOf(req), parseQuery(PageQuery, req)));
  });

  router.get('/:id', async (req, res) => {
    const id = parseId(req, 'id');
    res.json(await getBoardPage(ctx.db, deps.cursors, userIdOf(req), id, parseQuery(PageQuery, req)));
  });

  router.post('/', async (req, res) => {
    const { name } = parseBody(BoardBody, req);
    const userId = userIdOf(req);
    await withIdempotency(ctx, req, res, {
      operation: 'POST /api/boards/',
      input: { name },
      status: 201,
      run: (txCtx) => createBoard(txCtx, userId, name),
    });
  });

  router.patch('/:id', async (req, res) => {
    const id = parseId(req, 'id');
    const { name } = parseBody(BoardBody, req);
    res.json(await renameBoard(ctx, userIdOf(req), id, name));
  });

  router.delete('/:id', async (req, res) => {
    const id = parseId(req, 'id');
    await deleteBoard(ctx, userIdOf(req), id);
    res.json({ message: 'Board deleted', id });
  });

  router.post('/:id/pins', async (req, res) => {
    const id = parseId(req, 'id');
    const { pin_id } = parseBody(PinRefBody, req);
    const { pin, added } = await addPinToBoard(ctx, userIdOf(req), id, pin_id);
    res.status(added ? 201 : 200).json(pin);
  });

  router.delete('/:id/pins/:pinId', async (req, res) => {
    const id = parseId(req, 'id');
    const pinId = parseId(req, 'pinId');
    await removePinFromBoard(ctx, userIdOf(req), id, pinId);
    res.json({ message: 'Pin removed from board', board_id: id, pin_id: pinId });
  });

  return router;
}
