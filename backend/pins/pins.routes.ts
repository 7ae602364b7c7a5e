import { Router } from 'express';
import { MSG } from '../../contract/messages.ts';
import { PinCreateBody, PinUpdateBody } from '../../contract/pins.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { requireUser, userIdOf } from '../auth/require-user.ts';
import type { ServiceContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { type OriginPolicy, ownHosts } from '../http/origin.ts';
import { parseBody, parseId } from '../http/validate.ts';
import { withIdempotency } from '../idempotency/idempotency.ts';
import { createPin, deletePin, getPin, listPins, updatePin } from './pins.service.ts';

export function pinsRouter(ctx: ServiceContext, deps: { originPolicy: OriginPolicy }): Router {
  const router = Router();

  router.get('/', async (_req, res) => {
    res.json({ pins: await listPins(ctx.db) });
  });

  router.get('/:id', async (req, res) => {
    res.json(await getPin(ctx.db, parseId(req, 'id')));
  });

  router.post('/', requireUser, async (req, res) => {
    const input = parseBody(PinCreateBody, req);
    // The schema judged the address on its own; an absolute URL naming this very site is held to
    // the same-site rule too, which needs the request to know the site's names.
    if (!isAllowedImageUrl(input.imageUrl, ownHosts(req, deps.originPolicy))) {
      throw badRequest(MSG.imageUrlInvalid, { imageUrl: MSG.imageUrlInvalid });
    }
    const userId = userIdOf(req);
    await withIdempotency(ctx, req, res, {
      operation: 'POST /api/pins/',
      input,
      status: 201,
      run: (txCtx) => createPin(txCtx, userId, input),
    });
  });

  router.put('/:id', requireUser, async (req, res) => {
    const id = parseId(req, 'id');
    const input = parseBody(PinUpdateBody, req);
    res.json(await updatePin(ctx, userIdOf(req), id, input));
  });

  router.delete('/:id', requireUser, async (req, res) => {
    const id = parseId(req, 'id');
    await deletePin(ctx, userIdOf(req), id);
    res.json({ message: 'Pin deleted', id });
  });

  return router;
}
