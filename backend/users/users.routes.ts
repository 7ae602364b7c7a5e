import { ENDPOINTS } from '../../contract/endpoints.ts';
import { listProfileBoards } from '../boards/profile-boards.service.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { lookupUser, requireUser } from './users.service.ts';

export const userRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/users/lookup'], {
    summary: "A user's profile by username: id, username and pin count (their pins are GET /api/pins/?userId=)",
    auth: 'public',
    errors: [404],
    handler: async ({ ctx, res, query, userId }) => {
      res.json(await lookupUser(ctx.db, query.username, userId));
    },
  }),

  route(ENDPOINTS['GET /api/users/{id}/boards'], {
    summary: "The boards of a user's profile that you may see, newest first: their public boards, and those you are both members of (all yours on your own)",
    auth: 'public',
    errors: [404],
    handler: async ({ ctx, cursors, res, params, userId, query }) => {
      await requireUser(ctx.db, params.id);
      res.json(await listProfileBoards(ctx.db, cursors, userId, params.id, query));
    },
  }),
];
