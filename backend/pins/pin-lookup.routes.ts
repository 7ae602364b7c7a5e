import { ENDPOINTS } from '../../contract/endpoints.ts';
import { PIN_LOOKUP_MAX } from '../../contract/pin-lookup.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { pinsFromSource } from './pins.service.ts';

// Mounted before GET /api/pins/{id}, which would otherwise take "lookup" for an id.
export const pinLookupRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/pins/lookup'], {
    summary: `Your own pins saved from one page (sourceUrl), newest first, at most ${PIN_LOOKUP_MAX}: for a "saved" badge`,
    auth: 'user',
    handler: async ({ ctx, res, query, userId }) => {
      res.json({ pins: await pinsFromSource(ctx.db, userId, query.sourceUrl, PIN_LOOKUP_MAX) });
    },
  }),
];
