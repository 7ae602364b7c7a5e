import { ENDPOINTS } from '../../contract/endpoints.ts';
import { MSG } from '../../contract/messages.ts';
import { PAGE_IMAGES_MAX, PageImages } from '../../contract/pages.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { HttpError } from '../errors.ts';
import { ownHosts } from '../http/origin.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { refusedUpFront, SafeFetchError } from '../images/safe-fetch.ts';
import { readPage } from './page-images.ts';

// GET /api/pages/images?url=: the pictures of a web page, for the pin builder, the bookmarklet's
// window and the share target (docs/page-images.md).

/** Reads one user may have running at once (each may hold a connection for 10 s and 20 MB). */
const READS_PER_USER = 4;
const reading = new Map<number, number>();

const refused = () => new HttpError(400, MSG.pageAddressRefused, { fields: { url: MSG.pageAddressRefused } });
const unreachable = (message: string) => new HttpError(422, message, { fields: { url: message } });

/** A page that could not be read, in the answer's words. */
export function pageReadError(error: SafeFetchError): HttpError {
  switch (error.reason) {
    case 'bad_scheme':
    case 'bad_port':
    case 'blocked_address':
      return refused();
    case 'http_status': {
      const status = error.status ?? 0;
      if (status === 404 || status === 410) return unreachable(MSG.pageNotFound);
      return unreachable(status >= 500 ? MSG.pageSiteError : MSG.pageRefused);
    }
    case 'timeout':
      return unreachable(MSG.pageTimedOut);
    case 'unknown_host':
      return unreachable(MSG.pageUnknownHost);
    case 'too_many_redirects':
      return unreachable(MSG.pageTooManyRedirects);
    case 'too_large':
      return unreachable(MSG.imageTooLarge);
    case 'bad_url':
      // The address itself was checked up front: this is a redirect's Location.
      return unreachable(MSG.pageBadRedirect);
    case 'network':
      return unreachable(MSG.pageNoConnection);
  }
}

export const pageRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/pages/images'], {
    summary: `The pictures of a web page (og:image, twitter:image, image_src, then its large <img>s, largest first; at most ${PAGE_IMAGES_MAX}) and its title; an address that answers a picture is that picture`,
    auth: 'user',
    errors: [422],
    handler: async ({ ctx, originPolicy, req, res, query, userId }) => {
      const allow = ctx.fetching.allow;
      if (refusedUpFront(query.url, allow) !== undefined) throw refused();
      const running = reading.get(userId) ?? 0;
      if (running >= READS_PER_USER) throw new HttpError(429, MSG.rateLimited, { retryAfterSeconds: 5 });
      reading.set(userId, running + 1);
      // A caller that goes away stops the read.
      const gone = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) gone.abort();
      };
      res.on('close', onClose);
      try {
        const read = await readPage(query.url, {
          allow,
          ...(ctx.fetching.headersTimeoutMs !== undefined ? { headersTimeoutMs: ctx.fetching.headersTimeoutMs } : {}),
          signal: gone.signal,
        });
        const hosts = ownHosts(req, originPolicy);
        const known = originPolicy.publicOrigins.length > 0;
        const images = read.kind === 'image' ? [{ url: read.url }] : read.images;
        res.json({
          url: query.url,
          title: read.kind === 'image' ? '' : read.title,
          // This site's own addresses are held to the same-site rule a pin's image is.
          images: images.filter((image) => isAllowedImageUrl(image.url, hosts, known)),
        } satisfies PageImages);
      } catch (error) {
        throw error instanceof SafeFetchError ? pageReadError(error) : error;
      } finally {
        res.off('close', onClose);
        const left = (reading.get(userId) ?? 1) - 1;
        if (left > 0) reading.set(userId, left);
        else reading.delete(userId);
      }
    },
  }),
];
