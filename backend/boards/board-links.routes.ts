import type { Request } from 'express';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { createBoardLink, listBoardLinks, readLinkedBoard, revokeBoardLink } from './board-links.service.ts';

/** What a link's answer must never be: kept by a cache after a revoke, or indexed. */
const LINK_ANSWER_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow', 'Referrer-Policy': 'no-referrer' } as const;

/** The secret of each request to GET /api/links/{secret}, taken from its path before the route machinery reads it. */
const secrets = new WeakMap<Request, string>();

/**
 * The route machinery (backend/http/route.ts) reads every `{param}` as a row id, and a link's
 * secret is not one: this keeps the raw secret aside and hands the machinery a placeholder id, so
 * the route still goes through its sign-in, query and error handling. The handler validates the
 * secret itself (a malformed one is 404, like an unknown one).
 */
function withSecretInPath(declared: ApiRoute): ApiRoute {
  return {
    ...declared,
    run(req, res, deps) {
      const raw = req.params.secret;
      secrets.set(req, typeof raw === 'string' ? raw : '');
      req.params = { ...req.params, secret: '1' };
      return declared.run(req, res, deps);
    },
  };
}

export const boardLinkRoutes: ApiRoute[] = [
  route(ENDPOINTS['POST /api/boards/{id}/links'], {
    summary: 'Make a secret read-only link to your board (owner only: 403 for a collaborator; 409 beyond 20 links); its url is shown this once',
    auth: 'user',
    errors: [403, 404, 409],
    handler: async ({ ctx, res, params, userId }) => {
      res.status(201).json(await createBoardLink(ctx.db, userId, params.id));
    },
  }),

  route(ENDPOINTS['GET /api/boards/{id}/links'], {
    summary: "Your board's links, newest first, without their secrets (owner only: 403 for a collaborator)",
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, res, params, userId }) => {
      res.json({ links: await listBoardLinks(ctx.db, userId, params.id) });
    },
  }),

  route(ENDPOINTS['DELETE /api/boards/{id}/links/{linkId}'], {
    summary: 'Revoke a link to your board (owner only): refused at once by every instance',
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, res, params, userId }) => {
      await revokeBoardLink(ctx.db, userId, params.id, params.linkId);
      res.json({ message: 'Link revoked', board_id: params.id, link_id: params.linkId });
    },
  }),

  withSecretInPath(
    route(ENDPOINTS['GET /api/links/{secret}'], {
      summary: "A board opened by its secret link (the link's /b/<secret> page): the board and a page of all its pins, to anyone; 404 once revoked",
      auth: 'public',
      errors: [404],
      handler: async ({ ctx, cursors, req, res, query }) => {
        res.set(LINK_ANSWER_HEADERS);
        res.json(await readLinkedBoard(ctx.db, cursors, secrets.get(req) ?? '', query));
      },
    }),
  ),
];
