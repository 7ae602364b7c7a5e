import { ENDPOINTS } from '../../contract/endpoints.ts';
import { MSG } from '../../contract/messages.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { withIdempotentWrite } from '../idempotency/idempotency.ts';
import { addFavorite, listFavorites, removeFavorite } from './favorites.service.ts';

export const favoriteRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/favorites/'], {
    summary: 'A page of your favorites, most recent first',
    auth: 'user',
    handler: async ({ ctx, cursors, res, userId, query }) => {
      res.json(await listFavorites(ctx.db, cursors, userId, query));
    },
  }),

  route(ENDPOINTS['POST /api/favorites/'], {
    summary: 'Favorite a pin',
    auth: 'user',
    errors: [404],
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

  route(ENDPOINTS['DELETE /api/favorites/{id}'], {
    summary: 'Remove a favorite (by favorite id)',
    auth: 'user',
    errors: [404],
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
