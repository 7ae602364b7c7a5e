import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Request, Response } from 'express';
import { HOME_FIRST_PAGE_ID, HOME_PRELOADED_IMAGES, HOME_SEED_META, type HomeFirstPage, PIN_PAGE_PATH, PIN_SHELL_CLASS, SESSION_DATA_ID, type ServedSession } from '../../contract/home.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { PinList } from '../../contract/pins.ts';
import { GRID_CARD_SIZES, thumbnailSrcSet } from '../../contract/thumbnails.ts';

// The single-page app's HTML. Every page carries the session check's answer, so the layout needs no
// request before it shows the page. The home page also carries the first page of the feed, so the
// grid can be drawn as soon as the script has run, and preloads that page's first thumbnails, which
// then load beside the script instead of after it (docs/footprint.md). The feed is a per-visit
// shuffle: the page is given its visit's seed in a meta tag, and the page of that seed.

export interface ClientPageOptions {
  /** What GET /api/auth/ answers this request's caller. */
  session: (req: Request) => Promise<ServedSession>;
  /** The first page of the home feed's shuffle for `seed` (what GET /api/pins/?order=shuffle&seed= answers). */
  firstPage: (seed: number, req: Request) => Promise<PinList>;
  /** Told when the session or the first page could not be read: the HTML is sent without it, and the client asks. */
  onError: (error: unknown) => void;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** JSON in a <script> element: `<` escaped, so no text in it (a pin's, a name) can close the element. */
const jsonScript = (id: string, value: unknown) => `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

/** The home page's additions to <head>: its seed, its first page (or a preload of it), the first thumbnails. */
function homeHead(seed: number, page: PinList | undefined): string {
  const meta = `<meta name="${HOME_SEED_META}" content="${seed}">`;
  if (!page) return `${meta}<link rel="preload" as="fetch" crossorigin href="/api/pins/?order=shuffle&amp;seed=${seed}">`;
  const served: HomeFirstPage = { seed, page };
  const images = page.pins
    .flatMap((pin) => (pin.image ? [pin.image] : []))
    .slice(0, HOME_PRELOADED_IMAGES)
    .map((image) => `<link rel="preload" as="image" fetchpriority="high" imagesrcset="${escapeAttribute(thumbnailSrcSet(image))}" imagesizes="${GRID_CARD_SIZES}">`);
  return `${meta}${images.join('')}${jsonScript(HOME_FIRST_PAGE_ID, served)}`;
}

export function clientPage(indexHtml: string, options: ClientPageOptions): (req: Request, res: Response) => Promise<void> {
  let cached: { mtimeMs: number; html: string } | undefined;
  const read = (): string | undefined => {
    const stat = statSync(indexHtml, { throwIfNoEntry: false });
    if (!stat) return undefined;
    if (cached?.mtimeMs !== stat.mtimeMs) cached = { mtimeMs: stat.mtimeMs, html: readFileSync(indexHtml, 'utf8') };
    return cached.html;
  };
  return async (req, res) => {
    const html = read();
    if (html === undefined) {
      res.status(503).type('text').send('The web client is not built yet: run `npm run build`.');
      return;
    }
    // Each answer is the visitor's own (their session, the home page's seed): never stored by a
    // shared cache, and checked again before reuse; the scripts and styles are cached. The session
    // in it is the cookie's, so a copy kept for one cookie is not the answer for another.
    res.set('Cache-Control', 'private, no-cache');
    res.vary('Cookie');
    // A board's secret link (/b/<secret>, docs/board-sharing.md) is for its holders: never indexed,
    // and its address is not sent on to other sites as a Referer.
    if (req.path.startsWith('/b/')) res.set({ 'X-Robots-Tag': 'noindex, nofollow', 'Referrer-Policy': 'no-referrer' });
    const attempt = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (error) {
        options.onError(error);
        return undefined;
      }
    };
    const home = req.path === '/';
    const seed = home ? randomInt(0, LIMITS.maxId + 1) : 0;
    const [session, page] = await Promise.all([attempt(() => options.session(req)), home ? attempt(() => options.firstPage(seed, req)) : undefined]);
    const head = (session ? jsonScript(SESSION_DATA_ID, session) : '') + (home ? homeHead(seed, page) : '');
    // A pin's link paints the pin page's skeleton first (contract/home.ts).
    const marked = PIN_PAGE_PATH.test(req.path) ? html.replace(/<html\b/, `<html class="${PIN_SHELL_CLASS}"`) : html;
    res.type('html').send(head ? marked.replace('</head>', `${head}</head>`) : marked);
  };
}
