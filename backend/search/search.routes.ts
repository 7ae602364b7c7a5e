import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { relatedPins } from './related.service.ts';
import { searchPins } from './search.service.ts';
import { suggest } from './suggest.service.ts';

// Search, the type-ahead and related pins (docs/search.md). Not cached: a new or edited pin is
// findable the moment its write commits, and answers depend on the query (and, for related pins,
// on the reader's boards). Read from the replica when there is one, unless the caller's own
// writes are not on it yet (backend/http/read-your-writes.ts).

export const searchRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/search'], {
    summary:
      'Pins matching q, best first (title, then description, tags, alt text, author, recognised text): words, "phrases", -exclusions, or, color:NAME; typo-tolerant (widened says so); the last word also a prefix. color= filters as color: does (q=color:red alone: newest first); scope=mine|favorites|board:<id> searches those pins (401 signed out for mine and favorites, 404 for a board the caller may not read)',
    auth: 'public',
    errors: [401, 404],
    handler: async ({ reader, cursors, req, res, query, userId }) => {
      res.json(await reader(req, (db) => searchPins(db, cursors, query, userId)));
    },
  }),

  route(ENDPOINTS['GET /api/search/suggest'], {
    summary: 'The type-ahead: up to 8 tags (most used first), 8 users and the colours whose name starts with the last word of q (or with what follows color:)',
    auth: 'public',
    handler: async ({ reader, req, res, query }) => {
      res.json(await reader(req, (db) => suggest(db, query.q)));
    },
  }),

  route(ENDPOINTS['GET /api/pins/{id}/related'], {
    summary: 'More like this: pins sharing tags, boards, words, colours or a near-identical picture with the pin; best first, never the pin itself',
    auth: 'public',
    errors: [404],
    handler: async ({ reader, cursors, req, res, params, query, userId }) => {
      res.json(await reader(req, (db) => relatedPins(db, cursors, params.id, userId, query)));
    },
  }),
];
