import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { removeMember } from './board-members.service.ts';
import { blockUser, checkBlockable, listBlocks, unblockUser } from './blocks.service.ts';

// Who may not add you to boards (docs/board-sharing.md). Signed in only; each user sees and
// changes only their own list.
export const blockRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/users/blocks'], {
    summary: 'A page of the users you blocked from adding you to boards, most recently blocked first',
    auth: 'user',
    handler: async ({ ctx, cursors, res, userId, query }) => {
      res.json(await listBlocks(ctx.db, cursors, userId, query));
    },
  }),

  route(ENDPOINTS['POST /api/users/blocks'], {
    summary:
      'Block a user from adding you to boards (their invitations then get the answer an unknown username gets); with leaveBoardId, also leave that board. 201 blocked, 200 already blocked; 404 unknown user',
    auth: 'user',
    errors: [403, 404, 409],
    handler: async ({ ctx, res, body, userId }) => {
      await checkBlockable(ctx.db, userId, body.userId);
      // Leaving first, as DELETE /api/boards/{id}/members/{me} would (404 not a member, 403 its owner):
      // a refused leave blocks nobody.
      if (body.leaveBoardId !== undefined) await removeMember(ctx, userId, body.leaveBoardId, userId);
      const { block, created } = await blockUser(ctx.db, userId, body.userId);
      res.status(created ? 201 : 200).json(block);
    },
  }),

  route(ENDPOINTS['DELETE /api/users/blocks/{userId}'], {
    summary: 'Unblock a user (404 when they are not blocked)',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      await unblockUser(ctx.db, userId, params.userId);
      res.json({ message: 'Unblocked', user_id: params.userId });
    },
  }),
];
