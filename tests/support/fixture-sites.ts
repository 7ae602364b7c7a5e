// Small web sites on 127.0.0.1 for the extension's tests: `site` serves the pages a user saves
// from (and a few pictures of its own origin), `images` (another port: another origin) serves their
// pictures, as a CDN or a photo host would, and `intranet` (reached as `localhost`: another host,
// so cookies of its own) plays a company's internal picture host behind a sign-in. Pictures are
// drawn on request with sharp (nothing binary is checked in).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** The cookie the cookie page sets, which the members-only picture demands. */
export const MEMBER_COOKIE = 'fixture_session=letmein';

/** The cookie the intranet's sign-in page sets (on `localhost`), which its secret picture demands. */
export const INTRANET_COOKIE = 'intranet_session=staff';
/** The intranet's secret picture: its size tells it apart from every other fixture picture. */
export const INTRANET_SECRET_SIZE = { width: 640, height: 480 } as const;
/** The kitten the hostile page shows (served from the page's own origin). */
export const KITTEN_SIZE = { width: 420, height: 315 } as const;

type RequestLog = Array<{ path: string; cookie: boolean; dest: string | undefined }>;

export interface FixtureSites {
  site: string;
  images: string;
  imagesPort: number;
  /** Requests each picture path got, with whether they carried the member cookie. */
  imageRequests: RequestLog;
  /** The port of `site`, for tests that reach it under another host name. */
  sitePort: number;
  /** Requests for pictures `site` serves from its own origin, with whether they carried the member cookie. */
  siteImageRequests: RequestLog;
  /** `http://localhost:<port>`: the intranet host. */
  intranet: string;
  /** Requests the intranet got, with whether they carried the intranet cookie. */
  intranetRequests: RequestLog;
  close(): Promise<void>;
}

const pictures = new Map<string, Promise<Buffer>>();

/** An HSL colour as RGB bytes (h in degrees, s and l in 0..1). */
function rgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/**
 * A width × height JPEG: a diagonal gradient whose hues depend on the size, and a sun. Drawn as raw
 * pixels: the server under test, in this same process, blocks libvips' SVG loader (and every loader
 * but the five stored formats' ones: backend/images/process.ts).
 */
function picture(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let made = pictures.get(key);
  if (!made) {
    const hue = (width * 7 + height * 13) % 360;
    const [from, to, sun] = [rgb(hue, 0.7, 0.62), rgb((hue + 60) % 360, 0.6, 0.3), rgb((hue + 180) % 360, 0.9, 0.85)];
    const [cx, cy, r] = [width * 0.7, height * 0.32, Math.min(width, height) * 0.14];
    // Shade: a 4 × 4 pattern of light and dark fields from the size, so pictures of different sizes
    // are different pictures to the server's perceptual hash (docs/duplicates.md); a bare gradient
    // and sun would be one picture at every size, and a save would be warned as saved already.
    const pattern = Math.imul(width * 7_919 + height * 104_729, 2_654_435_761) >>> 16;
    const shade = (x: number, y: number) => ((pattern >> (Math.floor((y / height) * 4) * 4 + Math.floor((x / width) * 4))) & 1 ? 1 : 0.45);
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const t = (x / width + y / height) / 2;
        const inSun = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
        const k = shade(x, y);
        for (let c = 0; c < 3; c++) pixels[(y * width + x) * 3 + c] = inSun ? (sun[c] as number) : Math.round(((from[c] as number) * (1 - t) + (to[c] as number) * t) * k);
      }
    }
    made = sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer();
    pictures.set(key, made);
  }
  return made;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

function sitePages(images: string, intranet: string): Record<string, { html: string; headers?: Record<string, string> }> {
  // Sizes in a shuffled order (the popup must sort them), each image a different size.
  const twenty = Array.from({ length: 20 }, (_, i) => ({ n: i + 1, w: 180 + ((i * 7) % 20) * 20, h: 160 + ((i * 3) % 5) * 30 }));
  return {
    '/csp.html': {
      // No script may run on this page, not even inline: the extension's content script still does.
      headers: { 'Content-Security-Policy': "script-src 'none'" },
      html: page(
        'A page that runs no script',
        `<style>
          * { font-size: 31px !important; color: rgb(0, 128, 0) !important; }
          button { background: rgb(0, 255, 0) !important; border: 5px solid blue !important; }
          pinboard-extension-ui { display: none !important; }
        </style>
        <script>document.title = 'a script ran';</script>
        <h1>Kites</h1>
        <img id="big" src="${images}/photo/480x360.jpg" alt="A kite over the hill" width="480" height="360">
        <img id="small" src="${images}/photo/120x120.jpg" alt="A small icon" width="120" height="120">
        <p><button id="page-button" type="button">The page's own button</button></p>`,
      ),
    },
    '/cookie.html': {
      headers: { 'Set-Cookie': `${MEMBER_COOKIE}; Path=/; SameSite=Lax; HttpOnly` },
      html: page('Members area', `<h1>Members only</h1><img id="member" src="${images}/members/photo.jpg" alt="A members-only photo" width="400" height="300">`),
    },
    '/twenty.html': {
      html: page(
        'Twenty pictures',
        `<h1>Twenty pictures</h1>${twenty.map((p) => `<img src="${images}/photo/${p.w}x${p.h}.jpg" alt="Picture ${p.n}" width="${p.w / 2}" height="${p.h / 2}">`).join('\n')}`,
      ),
    },
    '/fallback.html': {
      html: page('Hotlinked', `<h1>Only for image tags</h1><img id="guarded" src="${images}/img-only/photo.jpg" alt="" width="320" height="240">`),
    },
    '/members-here.html': {
      // The members-only picture on the page's own origin: the case the extension sends cookies for.
      headers: { 'Set-Cookie': `${MEMBER_COOKIE}; Path=/; SameSite=Lax; HttpOnly` },
      html: page('Members here', `<h1>Members only</h1><img id="member" src="/members/photo.jpg" alt="A members-only photo" width="400" height="300">`),
    },
    '/hostile.html': {
      // The security review's page: the browser shows the kitten (400 CSS px wide, 1x), while the
      // widest srcset candidate is the intranet's cookie-protected picture, which the page never loads.
      html: page(
        'Cute kittens',
        `<h1>Kittens</h1>
        <img id="kitten" src="/photo/${KITTEN_SIZE.width}x${KITTEN_SIZE.height}.jpg"
          srcset="/photo/${KITTEN_SIZE.width}x${KITTEN_SIZE.height}.jpg 400w, ${intranet}/secret.jpg 4000w" sizes="400px"
          alt="A kitten" width="400" height="300">`,
      ),
    },
  };
}

async function serveImage(req: IncomingMessage, res: ServerResponse, log: RequestLog): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const cookie = (req.headers.cookie ?? '').split(/;\s*/).includes(MEMBER_COOKIE);
  const dest = req.headers['sec-fetch-dest'] as string | undefined;
  log.push({ path, cookie, dest });
  const deny = (status: number) => void res.writeHead(status, { 'Content-Type': 'text/plain' }).end('no');
  const size = /^\/photo\/(\d{2,4})x(\d{2,4})\.jpg$/.exec(path);
  let bytes: Buffer | null = null;
  if (size) bytes = await picture(Number(size[1]), Number(size[2]));
  else if (path === '/members/photo.jpg') {
    // A signed-in picture: without the member cookie, 403 (so the server cannot import it itself).
    if (!cookie) return deny(403);
    bytes = await picture(400, 300);
  } else if (path === '/img-only/photo.jpg') {
    // Hotlink protection that lets <img> tags and servers through but not a script's fetch().
    if (dest && dest !== 'image') return deny(403);
    bytes = await picture(320, 240);
  }
  if (!bytes) return deny(404);
  res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': bytes.length, 'Cache-Control': 'no-store' });
  res.end(bytes);
}

/** The intranet: a sign-in page that sets its cookie, and a picture only signed-in staff get. */
async function serveIntranet(req: IncomingMessage, res: ServerResponse, log: RequestLog): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const cookie = (req.headers.cookie ?? '').split(/;\s*/).includes(INTRANET_COOKIE);
  log.push({ path, cookie, dest: req.headers['sec-fetch-dest'] as string | undefined });
  if (path === '/login.html') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': `${INTRANET_COOKIE}; Path=/; SameSite=Lax; HttpOnly` });
    return void res.end(page('Intranet', '<h1>Signed in to the intranet</h1>'));
  }
  if (path === '/secret.jpg' && cookie) {
    const bytes = await picture(INTRANET_SECRET_SIZE.width, INTRANET_SECRET_SIZE.height);
    res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': bytes.length, 'Cache-Control': 'no-store' });
    return void res.end(bytes);
  }
  res.writeHead(path === '/secret.jpg' ? 403 : 404, { 'Content-Type': 'text/plain' }).end('no');
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startFixtureSites(): Promise<FixtureSites> {
  const imageRequests: FixtureSites['imageRequests'] = [];
  const imageServer = createServer((req, res) => {
    serveImage(req, res, imageRequests).catch(() => res.writeHead(500).end());
  });
  const imagesPort = await listen(imageServer);
  const images = `http://127.0.0.1:${imagesPort}`;
  const intranetRequests: RequestLog = [];
  const intranetServer = createServer((req, res) => {
    serveIntranet(req, res, intranetRequests).catch(() => res.writeHead(500).end());
  });
  const intranet = `http://localhost:${await listen(intranetServer)}`;
  const pages = sitePages(images, intranet);
  const siteImageRequests: RequestLog = [];
  const siteServer = createServer((req, res) => {
    const found = pages[new URL(req.url ?? '/', 'http://x').pathname];
    // Not a page: one of the pictures the site serves from its own origin (or a 404).
    if (!found) return void serveImage(req, res, siteImageRequests).catch(() => res.writeHead(500).end());
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...found.headers }).end(found.html);
  });
  const sitePort = await listen(siteServer);
  const site = `http://127.0.0.1:${sitePort}`;
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  const servers = [imageServer, siteServer, intranetServer];
  return {
    site,
    images,
    imagesPort,
    imageRequests,
    sitePort,
    siteImageRequests,
    intranet,
    intranetRequests,
    async close() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map(close));
    },
  };
}
