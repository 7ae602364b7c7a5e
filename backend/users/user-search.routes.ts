import { UserSearchQuery, UserSearchResult } from '../../contract/users.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { searchUsers } from './user-search.service.ts';

export const userSearchRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/api/users/',
    summary: 'Up to 10 users whose username starts with q (case-insensitive), by username: to invite to a board',
    auth: 'user',
    query: UserSearchQuery,
    responses: { 200: UserSearchResult },
    handler: async ({ ctx, res, query }) => {
      res.json(await searchUsers(ctx.db, query.q));
    },
  }),
];
