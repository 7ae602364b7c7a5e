import { pipeline } from 'node:stream/promises';
import { type Request, type Response, Router } from 'express';
import { HttpError, unauthorized } from '../errors.ts';
import { parseMediaKey } from './media-urls.ts';
import type { MediaStorage } from './storage.ts';

// GET/HEAD /media/<2 hex>/<file>: stored images, from whichever storage is configured. A key names
// its content forever (content-addressed), so browsers and any cache in between keep it for a year
// without asking again, and its ETag is the key itself. Mounted before sessions, like static files.

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** On a members-only site, or of a private pin: kept by the browser alone, never by a shared cache that would hand it to anyone. */
const IMMUTABLE_PRIVATE = 'private, max-age=31536000, immutable';

const notFound = () => new HttpError(404, 'Image not found.');

/**
 * Who may have a stored image on a members-only site (docs/site-access.md): a signed-in member, or
 * a holder of a board link that shows it. Without it (a public site) every image is public.
 */
export type MediaAccess = (req: Request, sha256: string) => Promise<boolean>;

/**
 * On a public site, whether a public pin shows the image: one only private pins show is kept by
 * the browser alone, never by a shared cache (docs/who-sees-what.md).
 */
export type ShownPublicly = (sha256: string) => Promise<boolean>;

export function mediaRoutes(storage: MediaStorage, rule: { access: MediaAccess } | { shownPublicly: ShownPublicly }): Router {
  const router = Router();
  router.get('/:folder/:name', async (req: Request<{ folder: string; name: string }>, res: Response) => {
    // Exactly the keys mediaKey makes: no dot segments, encodings or other names reach the storage.
    const key = `${req.params.folder}/${req.params.name}`;
    const parsed = parseMediaKey(key);
    if (!parsed) throw notFound();
    if ('access' in rule && !(await rule.access(req, parsed.sha256))) throw unauthorized();
    const cacheControl = 'access' in rule || !(await rule.shownPublicly(parsed.sha256)) ? IMMUTABLE_PRIVATE : IMMUTABLE;
    const etag = `"${key.slice(3)}"`;
    if (matches(req.headers['if-none-match'], etag)) {
      // Only when the file is there: a 304 must not vouch for a key that names nothing.
      if (!(await storage.exists(key))) throw notFound();
      res.set({ ETag: etag, 'Cache-Control': cacheControl }).status(304).end();
      return;
    }
    const headers = (size: number) => ({
      'Content-Type': parsed.contentType,
      'Content-Length': String(size),
      'Cache-Control': cacheControl,
      ETag: etag,
      // Helmet sends it too; said here as it is what makes serving user files safe.
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') {
      const stat = await storage.stat(key);
      if (!stat) throw notFound();
      res.set(headers(stat.size)).status(200).end();
      return;
    }
    const file = await storage.get(key);
    if (!file) throw notFound();
    res.set(headers(file.size)).status(200);
    try {
      await pipeline(file.body, res);
    } catch (error) {
      // The headers are gone: all that can be done is to cut the response short, so the client
      // sees a broken file rather than a complete-looking truncated one. A client that went away is no error.
      if (!res.destroyed) res.destroy(error as Error);
    }
  });
  // Anything else under /media/: other methods, other shapes of path.
  router.use(() => {
    throw notFound();
  });
  return router;
}

/** If-None-Match holds this ETag (or `*`); weak forms (W/"…") match too, as RFC 9110 says for it. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}
