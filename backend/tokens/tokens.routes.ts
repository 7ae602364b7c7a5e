import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { createToken, listTokens, revokeToken } from './tokens.service.ts';

// Personal access tokens (docs/tokens-and-capture.md), managed only from a signed-in browser
// session: a token never mints, lists or revokes tokens (`sessionOnly`).
export const tokenRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/tokens'], {
    summary: 'Your personal access tokens, newest first (never their secrets)',
    auth: 'user',
    sessionOnly: true,
    handler: async ({ ctx, res, userId }) => {
      res.json({ tokens: await listTokens(ctx.db, userId) });
    },
  }),

  route(ENDPOINTS['POST /api/tokens'], {
    summary: 'Create a personal access token; its secret is in this answer only',
    auth: 'user',
    sessionOnly: true,
    errors: [409],
    handler: async ({ ctx, res, body, userId }) => {
      // The secret must not sit in a shared cache or the browser's.
      res.set('Cache-Control', 'no-store');
      res.status(201).json(await createToken(ctx.db, userId, body));
    },
  }),

  route(ENDPOINTS['DELETE /api/tokens/{id}'], {
    summary: 'Revoke one of your tokens (refused by every instance once this answers)',
    auth: 'user',
    sessionOnly: true,
    errors: [404],
    handler: async ({ ctx, tokens, res, params, userId }) => {
      const secretHash = await revokeToken(ctx.db, userId, params.id);
      await tokens.revoked(secretHash);
      res.json({ message: 'Token revoked', id: params.id });
    },
  }),
];
