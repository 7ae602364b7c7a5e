import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Request, Response } from 'express';
import { LIMITS } from '../../contract/limits.ts';
import { HOME_SEED_META } from '../../contract/home.ts';

// The single-page app's HTML. For the home page it also starts the first page of the feed before
// any script has run: the feed is a per-visit shuffle (docs/footprint.md), so the page is given
// its visit's seed in a meta tag and a `<link rel="preload" as="fetch" crossorigin>` for that very
// page, which the client's own fetch of the same address (same mode and credentials) then reuses.

export function clientPage(indexHtml: string): (req: Request, res: Response) => void {
  let cached: { mtimeMs: number; html: string } | undefined;
  const read = (): string | undefined => {
    const stat = statSync(indexHtml, { throwIfNoEntry: false });
    if (!stat) return undefined;
    if (cached?.mtimeMs !== stat.mtimeMs) cached = { mtimeMs: stat.mtimeMs, html: readFileSync(indexHtml, 'utf8') };
    return cached.html;
  };
  return (req, res) => {
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
    const head =
      `<meta name="${HOME_SEED_META}" content="${seed}">` +
      `<link rel="preload" as="fetch" crossorigin href="/api/pins/?order=shuffle&amp;seed=${seed}">`;
    res.type('html').send(html.replace('</head>', `${head}</head>`));
  };
}
