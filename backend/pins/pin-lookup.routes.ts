import { PIN_LOOKUP_MAX, PinLookup, PinLookupQuery } from '../../contract/pin-lookup.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { pinsFromSource } from './pins.service.ts';

// Mounted before GET /api/pins/{id}, which would otherwise take "lookup" for an id.
export const pinLookupRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/api/pins/lookup',
    summary: `Your own pins saved from one page (sourceUrl), newest first, at most ${PIN_LOOKUP_MAX}: for a "saved" badge`,
    auth: 'user',
    query: PinLookupQuery,
    responses: { 200: PinLookup },
    handler: async ({ ctx, res, query, userId }) => {
      res.json({ pins: await pinsFromSource(ctx.db, userId, query.sourceUrl, PIN_LOOKUP_MAX) });
    },
  }),
];
