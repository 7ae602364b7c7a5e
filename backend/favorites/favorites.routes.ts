import { Router } from 'express';
import { MSG } from '../../contract/messages.ts';
import { PageQuery } from '../../contract/paging.ts';
import { PinRefBody } from '../../contract/pins.ts';
import { requireUser, userIdOf } from '../auth/require-user.ts';
import type { ServiceContext } from '../context.ts';
import { parseBody, parseId, parseQuery } from '../http/validate.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { addFavorite, listFavorites, removeFavorite } from './favorites.service.ts';

export function favoritesRouter(ctx: ServiceContext, deps: { cursors: CursorCodec }): Router {
  const router = Router();
  router.use(requireUser);

  router.get('/', async (req, res) => {
    res.json(await listFavorites(ctx.db, deps.cursors, userIdOf(req), parseQuery(PageQuery, req)));
  });

  router.post('/', async (req, res) => {
    const { pin_id } = parseBody(PinRefBody, req);
    const favorite = await addFavorite(ctx, userIdOf(req), pin_id);
    if (favorite) res.status(201).json(favorite);
    else res.json({ message: MSG.alreadyFavorited });
  });

  router.delete('/:id', async (req, res) => {
    const id = parseId(req, 'id');
    const { pinId, likesCount } = await removeFavorite(ctx, userIdOf(req), id);
    res.json({ message: 'Removed from favorites', id, pin_id: pinId, likes_count: likesCount });
  });

  return router;
}
