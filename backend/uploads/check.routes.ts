import { ENDPOINTS } from '../../contract/endpoints.ts';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { PictureChecked } from '../../contract/duplicates.ts';
import { MSG } from '../../contract/messages.ts';
import { findDuplicates, type PictureKey } from '../duplicates/find-duplicates.ts';
import { HttpError, ImageRefusedError } from '../errors.ts';
import { ownHosts } from '../http/origin.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { detectImageFormat } from '../images/detect.ts';
import { sha256Of } from '../images/images.service.ts';
import { MEDIA_PATH, parseMediaKey } from '../images/media-urls.ts';
import { seeStoredThumbnail } from '../images/process.ts';
import { refusedUpFront, SafeFetchError, safeFetch } from '../images/safe-fetch.ts';
import type { ServiceContext } from '../context.ts';

// GET /api/images/duplicates?url=: warns before a pin is made from a picture's address (the pin
// builder's remote picture, a shared picture uploaded first), as POST /api/images/ warns before a
// pin is made from an upload (docs/duplicates.md). Nothing is stored: a picture of this site is
// known by its row, another site's is fetched (behind the SSRF guard), hashed in a processing slot
// like an upload, and looked up with the same look-up (find-duplicates.ts).

/** Checks one user may have running at once (each may hold a connection for 15 s and 20 MB). */
const CHECKS_PER_USER = 4;
const checking = new Map<number, number>();

/** This site's picture at `path` (/media/<key>): its row's hashes; undefined for any other path. */
async function ownPicture(ctx: ServiceContext, path: string): Promise<PictureKey | undefined> {
  if (!path.startsWith(`${MEDIA_PATH}/`)) return undefined;
  const key = parseMediaKey(path.slice(MEDIA_PATH.length + 1));
  if (!key) return undefined;
  return ctx.db.selectFrom('images').select(['sha256', 'phash', 'phash_mirror']).where('sha256', '=', key.sha256).executeTakeFirst();
}

/** Another site's picture, fetched and seen; undefined when it cannot be had or is no image. */
async function remotePicture(ctx: ServiceContext, url: string, signal: AbortSignal): Promise<PictureKey | undefined> {
  const allow = ctx.fetching.allow;
  if (refusedUpFront(url, allow) !== undefined) return undefined;
  try {
    const { headersTimeoutMs } = ctx.fetching;
    const fetched = await safeFetch(url, { maxBytes: IMAGE_LIMITS.maxBytes, allow, signal, ...(headersTimeoutMs !== undefined ? { headersTimeoutMs } : {}) });
    if (!(await detectImageFormat(fetched.bytes))) return undefined;
    // The hashes are of the picture's pixels, so they match the stored copy's (taken from its
    // largest thumbnail) within a few bits; the bytes' sha256 matches only a byte-identical file.
    const seen = await seeStoredThumbnail(fetched.bytes);
    return { sha256: sha256Of(fetched.bytes), phash: seen.phash.toString(), phash_mirror: seen.phashMirror.toString() };
  } catch (error) {
    // An unreachable or unreadable picture is not known: the import after the save decides.
    if (error instanceof SafeFetchError || error instanceof ImageRefusedError) return undefined;
    throw error;
  }
}

export const checkRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/images/duplicates'], {
    summary: "Your pins with the same or nearly the same picture as the one at `url` (this site's /media/ address or another site's picture), checked without storing it",
    auth: 'user',
    handler: async ({ ctx, originPolicy, req, res, query, userId }) => {
      const running = checking.get(userId) ?? 0;
      if (running >= CHECKS_PER_USER) throw new HttpError(429, MSG.rateLimited, { retryAfterSeconds: 5 });
      checking.set(userId, running + 1);
      // A caller that goes away (the address changed again) stops the fetch.
      const gone = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) gone.abort();
      };
      res.on('close', onClose);
      try {
        const url = new URL(query.url, 'http://same-site.invalid');
        const hosts = ownHosts(req, originPolicy);
        const sameSite = query.url.startsWith('/') || hosts.some((host) => host.toLowerCase() === url.host);
        const picture = sameSite ? await ownPicture(ctx, url.pathname) : await remotePicture(ctx, query.url, gone.signal);
        const duplicates = picture ? await findDuplicates(ctx.db, userId, picture) : [];
        res.json({ duplicates, checked: picture !== undefined } satisfies PictureChecked);
      } finally {
        res.off('close', onClose);
        const left = (checking.get(userId) ?? 1) - 1;
        if (left > 0) checking.set(userId, left);
        else checking.delete(userId);
      }
    },
  }),
];
