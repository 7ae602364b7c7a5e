import { ENDPOINTS } from '../../contract/endpoints.ts';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { createInvite, listInvites, revokeInvite } from './invites.service.ts';

// Invite links (docs/site-access.md): any member makes, lists and revokes their own.
export const inviteRoutes: ApiRoute[] = [
  route(ENDPOINTS['POST /api/invites'], {
    summary: 'Make an invite link: `uses` sign-ups (default 1), expiring in `expiresInDays` (default 7); 403 when sign-ups are closed, 409 beyond 50',
    auth: 'user',
    errors: [409],
    handler: async ({ ctx, res, site, body, userId }) => {
      // A link that could never admit anyone would only mislead whoever receives it.
      if (site.signups === 'closed') throw new HttpError(403, MSG.signupsClosed);
      res.status(201).json({ invite: await createInvite(ctx.db, userId, body) });
    },
  }),

  route(ENDPOINTS['GET /api/invites'], {
    summary: 'Your invite links, newest first, with the sign-ups each has left',
    auth: 'user',
    handler: async ({ ctx, res, userId }) => {
      res.json({ invites: await listInvites(ctx.db, userId) });
    },
  }),

  route(ENDPOINTS['DELETE /api/invites/{id}'], {
    summary: 'Revoke one of your invite links: a sign-up with its code is refused from then on',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      await revokeInvite(ctx.db, userId, params.id);
      res.json({ message: 'Invite revoked', invite_id: params.id });
    },
  }),
];
