import type { IncomingMessage } from 'node:http';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { MSG } from '../../contract/messages.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { badRequest } from '../errors.ts';
import { type OriginPolicy, ownHosts } from '../http/origin.ts';
import { cacheTags, sendCached } from '../http/read-cache.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { withIdempotency, withIdempotentWrite } from '../idempotency/idempotency.ts';
import { listTaggedPins } from './tagged-pins.ts';
import { createPin, deletePin, getPinFor, imageStatus, listPins, updatePin } from './pins.service.ts';
import { callerOf } from '../http/public-reads.ts';
import { unlessNotFound } from '../errors.ts';

/**
 * The image address a pin is given (created or edited), judged against this site's own names: the
 * schema judged it on its own, but an absolute URL naming this very site is held to the same-site
 * rule too, which needs the site's names: PUBLIC_ORIGIN's, else only what the request says, which
 * its sender chose (so then no address may reach the API, whatever host it names).
 */
function assertSiteImageUrl(imageUrl: string, req: IncomingMessage, originPolicy: OriginPolicy): void {
  if (!isAllowedImageUrl(imageUrl, ownHosts(req, originPolicy), originPolicy.publicOrigins.length > 0)) {
    throw badRequest(MSG.imageUrlInvalid, { imageUrl: MSG.imageUrlInvalid });
  }
}

export const pinRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/pins/'], {
    summary: "A page of pins: newest first (all, one user's with userId, or one tag's with tag), or the visit's shuffle (order=shuffle&seed=S)",
    auth: 'public',
    cached: true,
    handler: async ({ ctx, cursors, reads, reader, req, res, query, userId }) => {
      // A user's own list, read by them, holds their private pins too: never cached.
      if (query.userId !== undefined && query.userId === callerOf(req, userId)) {
        res.json(await reader(req, (db) => listPins(db, cursors, query, query.userId)));
        return;
      }
      // A visit's shuffle is its own: caching it would only push out what others share.
      if (query.order === 'shuffle') {
        res.json(await reader(req, (db) => listPins(db, cursors, query)));
        return;
      }
      // A tag's pins: not cached, so a pin is listed under a tag the moment its edit commits.
      const { tag } = query;
      if (tag !== undefined) {
        res.json(await reader(req, (db) => listTaggedPins(db, cursors, { ...query, tag })));
        return;
      }
      // The cached pages load from the primary: a load that starts after an invalidation must
      // see that change, which a lagging replica may not have (docs/operations.md#a-read-replica).
      const key = `pins:${query.userId ?? 'all'}:${query.limit ?? ''}:${query.cursor ?? ''}`;
      const read = await reads.read(key, {
        load: () => listPins(ctx.db, cursors, query),
        // A page changes with its pins; a first page also when a pin is created.
        tags: (page) => [...page.pins.map((pin) => cacheTags.pin(pin.id)), ...(query.cursor ? [] : [cacheTags.firstPages])],
      });
      sendCached(req, res, read);
    },
  }),

  route(ENDPOINTS['GET /api/pins/{id}'], {
    summary: "One pin (a private one only for its owner and its boards' members: 404 for anyone else)",
    auth: 'public',
    cached: true,
    errors: [404],
    handler: async ({ ctx, reads, reader, req, res, params, userId }) => {
      const read = await reads.read(`pin:${params.id}`, { load: () => getPinFor(ctx.db, params.id, undefined), tags: () => [cacheTags.pin(params.id)] }).catch(unlessNotFound);
      if (read) return sendCached(req, res, read);
      // Not a public pin: its owner and its boards' members see it (docs/who-sees-what.md), never from the cache.
      const caller = callerOf(req, userId);
      res.json(await reader(req, (db) => getPinFor(db, params.id, caller)));
    },
  }),

  route(ENDPOINTS['POST /api/pins/'], {
    summary: 'Create a pin',
    auth: 'user',
    handler: async ({ ctx, originPolicy, req, res, body, userId, operation }) => {
      assertSiteImageUrl(body.imageUrl, req, originPolicy);
      await withIdempotency(ctx, req, res, {
        operation,
        userId,
        input: body,
        status: 201,
        run: (txCtx) => createPin(txCtx, userId, body),
      });
    },
  }),

  route(ENDPOINTS['PUT /api/pins/{id}'], {
    summary: 'Edit your pin (title, description; imageUrl replaces its image; visibility alone switches who sees it)',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, originPolicy, req, res, params, body, userId }) => {
      if (body.imageUrl !== undefined) assertSiteImageUrl(body.imageUrl, req, originPolicy);
      res.json(await updatePin(ctx, userId, params.id, body));
    },
  }),

  route(ENDPOINTS['GET /api/pins/{id}/image-status'], {
    summary: "Where your pin's image stands: stored, importing, or failed and why (the pin's owner only)",
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, res, params, userId }) => {
      res.json(await imageStatus(ctx.db, userId, params.id));
    },
  }),

  route(ENDPOINTS['DELETE /api/pins/{id}'], {
    summary: 'Delete your pin',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, req, res, params, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: undefined,
        run: async (txCtx) => {
          await deletePin(txCtx, userId, params.id);
          return { status: 200, body: { message: 'Pin deleted', id: params.id } };
        },
      });
    },
  }),
];
