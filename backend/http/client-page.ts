import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Request, Response } from 'express';
import { HOME_FIRST_PAGE_ID, HOME_PRELOADED_IMAGES, HOME_SEED_META, type HomeFirstPage } from '../../contract/home.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { PinList } from '../../contract/pins.ts';
import { GRID_CARD_SIZES, thumbnailSrcSet } from '../../contract/thumbnails.ts';

// The single-page app's HTML. For the home page it also carries the first page of the feed, so the
// grid can be drawn as soon as the script has run, and preloads that page's first thumbnails, which
// then load beside the script instead of after it (docs/footprint.md). The feed is a per-visit
// shuffle: the page is given its visit's seed in a meta tag, and the page of that seed.

export interface ClientPageOptions {
  /** The first page of the home feed's shuffle for `seed` (what GET /api/pins/?order=shuffle&seed= answers). */
  firstPage: (seed: number) => Promise<PinList>;
  /** Told when the first page could not be read: the HTML is sent without it, and the client fetches it. */
  onError: (error: unknown) => void;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** JSON inside a <script> element: `<` escaped, so no text of a pin can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The home page's additions to <head>: its seed, its first page (or a preload of it), the first thumbnails. */
function homeHead(seed: number, page: PinList | undefined): string {
  const meta = `<meta name="${HOME_SEED_META}" content="${seed}">`;
  if (!page) return `${meta}<link rel="preload" as="fetch" crossorigin href="/api/pins/?order=shuffle&amp;seed=${seed}">`;
  const served: HomeFirstPage = { seed, page };
  const images = page.pins
    .flatMap((pin) => (pin.image ? [pin.image] : []))
    .slice(0, HOME_PRELOADED_IMAGES)
    .map((image) => `<link rel="preload" as="image" fetchpriority="high" imagesrcset="${escapeAttribute(thumbnailSrcSet(image))}" imagesizes="${GRID_CARD_SIZES}">`);
  return `${meta}${images.join('')}<script type="application/json" id="${HOME_FIRST_PAGE_ID}">${scriptJson(served)}</script>`;
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
    // Each answer differs (the home page's seed), so none is cached; the scripts and styles are.
    res.set('Cache-Control', 'no-cache');
    if (req.path !== '/') {
      res.type('html').send(html);
      return;
    }
    const seed = randomInt(0, LIMITS.maxId + 1);
    let page: PinList | undefined;
    try {
      page = await options.firstPage(seed);
    } catch (error) {
      options.onError(error);
    }
    res.type('html').send(html.replace('</head>', `${homeHead(seed, page)}</head>`));
  };
}
