import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { searchUsers } from './user-search.service.ts';

export const userSearchRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/users/'], {
    summary: 'Up to 10 users whose username starts with q (case-insensitive), by username: to invite to a board',
    auth: 'user',
    handler: async ({ ctx, res, query }) => {
      res.json(await searchUsers(ctx.db, query.q));
    },
  }),
];
