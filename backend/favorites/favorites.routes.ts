import { AlreadyFavorited, Favorite, FavoriteList, FavoriteRemoved } from '../../contract/favorites.ts';
import { MSG } from '../../contract/messages.ts';
import { PinRefBody } from '../../contract/pins.ts';
import { PageQuery } from '../../contract/paging.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { withIdempotentWrite } from '../idempotency/idempotency.ts';
import { addFavorite, listFavorites, removeFavorite } from './favorites.service.ts';

export const favoriteRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/api/favorites/',
    summary: 'A page of your favorites, most recent first',
    auth: 'user',
    query: PageQuery,
    responses: { 200: FavoriteList },
    handler: async ({ ctx, cursors, res, userId, query }) => {
      res.json(await listFavorites(ctx.db, cursors, userId, query));
    },
  }),

  route({
    method: 'post',
    path: '/api/favorites/',
    summary: 'Favorite a pin',
    auth: 'user',
    body: PinRefBody,
    responses: { 201: { schema: Favorite, description: 'Favorited' }, 200: { schema: AlreadyFavorited, description: 'Already favorited' } },
    errors: [404],
    idempotent: true,
    handler: async ({ ctx, req, res, body, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: body,
        // A repeat of the call that added it answers 201 again, not "Already favorited".
        run: async (txCtx) => {
          const favorite = await addFavorite(txCtx, userId, body.pin_id);
          return favorite ? { status: 201, body: favorite } : { status: 200, body: { message: MSG.alreadyFavorited } };
        },
      });
    },
  }),

  route({
    method: 'delete',
    path: '/api/favorites/{id}',
    summary: 'Remove a favorite (by favorite id)',
    auth: 'user',
    responses: { 200: FavoriteRemoved },
    errors: [404],
    idempotent: true,
    handler: async ({ ctx, req, res, params, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: undefined,
        run: async (txCtx) => {
          const { pinId, likesCount, likesVersion } = await removeFavorite(txCtx, userId, params.id);
          return { status: 200, body: { message: 'Removed from favorites', id: params.id, pin_id: pinId, likes_count: likesCount, likes_version: likesVersion } };
        },
      });
    },
  }),
];
