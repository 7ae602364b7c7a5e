import { PublicUser, UserLookupQuery } from '../../contract/users.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { lookupUser } from './users.service.ts';

export const userRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/api/users/lookup',
    summary: "A user's public profile by username (id and username; their pins are GET /api/pins/?userId=)",
    auth: 'public',
    query: UserLookupQuery,
    responses: { 200: PublicUser },
    errors: [404],
    handler: async ({ ctx, res, query }) => {
      res.json(await lookupUser(ctx.db, query.username));
    },
  }),
];
