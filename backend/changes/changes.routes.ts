import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { readChanges } from './changes.service.ts';

export const changeRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/changes'], {
    summary: 'The changes after `since` that you may see, oldest first (at most 1,000), or a reset',
    auth: 'public',
    handler: async ({ ctx, res, userId, query }) => {
      res.json(await readChanges(ctx.db, userId, query.since));
    },
  }),
];
