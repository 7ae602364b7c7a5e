import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { MSG } from '../../contract/messages.ts';
import { PAGE_IMAGES_MAX, PageImages } from '../../contract/pages.ts';
import { picturesOfHtml, readPage } from '../../backend/pages/page-images.ts';
import { ApiClient, type ApiResponse, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { TokenClient } from '../support/token-client.ts';
import { useTestServer } from '../support/use-test-server.ts';

// GET /api/pages/images?url= (docs/page-images.md): the pictures of a web page, read through the
// SSRF guard. The pages are served by a small local site, allowed explicitly (FETCH_ALLOW_CIDRS /
// FETCH_ALLOW_PORTS) as image imports' tests allow theirs.

const MB = 1024 * 1024;
let site: Server;
let origin: string;
let cat: Buffer;
const sockets = new Set<Socket>();

const html = (head: string, body = '') => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

const GALLERY = html(
  '<title>Gallery</title><base href="/assets/">',
  `<img src="tiny.jpg" width="50" height="400">
   <img src="pixel.gif" width="1" height="1">
   <img src="data:image/png;base64,iVBORw0KGgo=" width="600" height="600">
   <img src="logo.svg" width="600" height="600">
   <img src="blob:https://example.com/8c1b" width="600" height="600">
   <img src="medium.jpg" width="300" height="200" alt=" A   medium one ">
   <img src="hero-small.jpg" srcset="hero-480.jpg 480w, hero-1920.jpg 1920w, hero-960.jpg 960w" width="480" height="270" alt="Hero">
   <img data-src="lazy.jpg" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
   <img src="/abs/plain.jpg">
   <img src="https://cdn.example.com/big.jpg" width="1000" height="1000">
   <img src="medium.jpg" width="300" height="200">
   <img src="equal.jpg" width="300px" height="200">`,
);

/** Over 2 MB of HTML: its picture in the head, and one more past the first 2 MB that is never read. */
function bigPage(): Buffer {
  const head = html('<title>Big</title><meta property="og:image" content="/big/first.jpg">', '');
  const filler = `<p>${'lorem ipsum '.repeat(80)}</p>\n`.repeat(Math.ceil((3 * MB) / 1000));
  return Buffer.from(`${head}${filler}<img src="/big/late.jpg" width="800" height="800">`);
}

const pages: Record<string, (res: ServerResponse) => void> = {
  '/pages/og': (res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      html(`<title>Plain title</title>
        <meta property="og:title" content="  The   OG title ">
        <meta property="og:image" content="og.jpg">
        <meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
        <meta property="og:image:alt" content="A sunset">
        <meta property="og:image" content="http://127.0.0.1:1/second.jpg">
        <meta name="twitter:image" content="og.jpg">`),
    ),
  '/pages/twitter': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('<title>Tweeted</title><meta name="twitter:image" content="/tw/card.png">')),
  '/pages/image-src': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('<title>Linked</title><link rel="image_src" href="https://img.example.net/src.jpg">')),
  '/gallery/index.html': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(GALLERY),
  '/cat.jpg': (res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(cat),
  '/download': (res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(cat),
  '/photo': (res) => res.writeHead(302, { location: '/cat.jpg' }).end(),
  '/plain': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('<title>Nothing here</title>', '<p>Words only.</p><img src="icon.png" width="16" height="16">')),
  '/notes.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('<img src="/not-html.jpg"> just text'),
  '/drawing.svg': (res) => res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  '/big': (res) => {
    const body = bigPage();
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': body.length }).end(body);
  },
  // 2.5 MB, then the connection stays open: only a reader that stops at 2 MB answers.
  '/big-stalls': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(bigPage().subarray(0, 2.5 * MB));
  },
  '/go/somewhere/deep': (res) => res.writeHead(301, { location: '/pages/og' }).end(),
  '/to-private': (res) => res.writeHead(302, { location: 'http://10.255.255.1/secret' }).end(),
  '/forbidden': (res) => res.writeHead(403).end('no'),
  '/broken': (res) => res.writeHead(500).end('oops'),
  '/slow': () => {
    // Never answers.
  },
  '/latin1': (res) => res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(Buffer.from('<title>Caf\u00e9 cr\u00e8me</title>', 'latin1')),
  '/cp1252': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.concat([Buffer.from('<meta charset="windows-1252"><title>10 '), Buffer.from([0x80]), Buffer.from('</title>')])),
  '/bad-utf8': (res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.concat([Buffer.from('<title>A'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('B</title>')])),
  '/many': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('', Array.from({ length: 80 }, (_, i) => `<img src="/m/${i}.jpg" width="${200 + i}" height="200">`).join(''))),
};

beforeAll(async () => {
  cat = await jpeg(640, 480);
  site = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://site').pathname];
    if (page) page(res);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
  });
  site.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const ask = (client: ApiClient | TokenClient, url: string) => client.get<PageImages & ErrorBody>(`/api/pages/images?url=${encodeURIComponent(url)}`);

function expectPictures(response: ApiResponse<PageImages & ErrorBody>): PageImages {
  expect(response.status, JSON.stringify(response.body).slice(0, 400)).toBe(200);
  return PageImages.parse(response.body);
}

function expectError(response: ApiResponse<PageImages & ErrorBody>, status: number, message?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(Object.keys(response.body).sort()).toEqual(['errors', 'fields', 'message']);
  if (message !== undefined) expect(response.body.message).toBe(message);
}

describe('GET /api/pages/images', () => {
  const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(origin).port, FETCH_HEADERS_TIMEOUT_SECONDS: '1' } }));
  let client: ApiClient;
  beforeAll(async () => {
    ({ client } = await signUpUser(server.url, 'pages'));
  });

  test('og:image (with its size and alt) comes first, og:title is the title; the same picture is listed once', async () => {
    const page = expectPictures(await ask(client, `${origin}/pages/og`));
    expect(page).toEqual({
      url: `${origin}/pages/og`,
      title: 'The OG title',
      images: [{ url: `${origin}/pages/og.jpg`, width: 1200, height: 630, alt: 'A sunset' }, { url: 'http://127.0.0.1:1/second.jpg' }],
    });
  });

  test('twitter:image alone, and <link rel="image_src">; the title is then <title>', async () => {
    expect(expectPictures(await ask(client, `${origin}/pages/twitter`))).toEqual({ url: `${origin}/pages/twitter`, title: 'Tweeted', images: [{ url: `${origin}/tw/card.png` }] });
    expect(expectPictures(await ask(client, `${origin}/pages/image-src`)).images).toEqual([{ url: 'https://img.example.net/src.jpg' }]);
  });

  test('<img>s: the widest srcset candidate, resolved against <base href>; icons, trackers, data:, blob: and SVG left out; largest first', async () => {
    const page = expectPictures(await ask(client, `${origin}/gallery/index.html`));
    expect(page.title).toBe('Gallery');
    expect(page.images).toEqual([
      { url: `${origin}/assets/hero-1920.jpg`, width: 1920, height: 1080, alt: 'Hero' },
      { url: 'https://cdn.example.com/big.jpg', width: 1000, height: 1000 },
      { url: `${origin}/assets/medium.jpg`, width: 300, height: 200, alt: 'A medium one' },
      { url: `${origin}/assets/equal.jpg`, width: 300, height: 200 },
      // Of unknown size: after the declared ones, in the page's order.
      { url: `${origin}/assets/lazy.jpg` },
      { url: `${origin}/abs/plain.jpg` },
    ]);
  });

  test(`at most ${PAGE_IMAGES_MAX} pictures, the largest`, async () => {
    const { images } = expectPictures(await ask(client, `${origin}/many`));
    expect(images).toHaveLength(PAGE_IMAGES_MAX);
    expect(images[0]).toEqual({ url: `${origin}/m/79.jpg`, width: 279, height: 200 });
    expect(images.at(-1)?.url).toBe(`${origin}/m/30.jpg`);
  });

  test('an address that answers a picture is that picture (at its final address, after redirects)', async () => {
    expect(expectPictures(await ask(client, `${origin}/cat.jpg`))).toEqual({ url: `${origin}/cat.jpg`, title: '', images: [{ url: `${origin}/cat.jpg` }] });
    expect(expectPictures(await ask(client, `${origin}/photo`))).toEqual({ url: `${origin}/photo`, title: '', images: [{ url: `${origin}/cat.jpg` }] });
    // Recognised by its bytes when the server does not say.
    expect(expectPictures(await ask(client, `${origin}/download`)).images).toEqual([{ url: `${origin}/download` }]);
  });

  test('a page without pictures, a text file and an SVG: no pictures', async () => {
    expect(expectPictures(await ask(client, `${origin}/plain`))).toEqual({ url: `${origin}/plain`, title: 'Nothing here', images: [] });
    expect(expectPictures(await ask(client, `${origin}/notes.txt`))).toEqual({ url: `${origin}/notes.txt`, title: '', images: [] });
    expect(expectPictures(await ask(client, `${origin}/drawing.svg`)).images).toEqual([]);
  });

  test('a redirect is followed; relative addresses resolve against the final page', async () => {
    const page = expectPictures(await ask(client, `${origin}/go/somewhere/deep`));
    expect(page.url).toBe(`${origin}/go/somewhere/deep`);
    expect(page.images[0]).toEqual({ url: `${origin}/pages/og.jpg`, width: 1200, height: 630, alt: 'A sunset' });
  });

  test('a page over 2 MB is read from its first 2 MB: what comes later is not seen, and the rest is never waited for', async () => {
    expect(expectPictures(await ask(client, `${origin}/big`))).toEqual({ url: `${origin}/big`, title: 'Big', images: [{ url: `${origin}/big/first.jpg` }] });
    const started = Date.now();
    expect(expectPictures(await ask(client, `${origin}/big-stalls`)).images).toEqual([{ url: `${origin}/big/first.jpg` }]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('the charset of the Content-Type or of <meta charset>; bytes that are not text become U+FFFD', async () => {
    expect(expectPictures(await ask(client, `${origin}/latin1`)).title).toBe('Café crème');
    expect(expectPictures(await ask(client, `${origin}/cp1252`)).title).toBe('10 €');
    expect(expectPictures(await ask(client, `${origin}/bad-utf8`)).title).toMatch(/^A\uFFFD+B$/);
  });

  test('a page that cannot be read: 422, its cause in words', async () => {
    expectError(await ask(client, `${origin}/missing`), 422, MSG.pageNotFound);
    expectError(await ask(client, `${origin}/forbidden`), 422, MSG.pageRefused);
    expectError(await ask(client, `${origin}/broken`), 422, MSG.pageSiteError);
    expectError(await ask(client, `${origin}/slow`), 422, MSG.pageTimedOut);
    const unknown = await ask(client, 'http://no-such-host.invalid/page');
    expectError(unknown, 422);
    expect([MSG.pageUnknownHost, MSG.pageNoConnection]).toContain(unknown.body.message);
  });

  test('an address the guard refuses: 400, whether given or reached by a redirect', async () => {
    const notAllowedPort = new URL(server.url).port;
    for (const url of [
      `http://127.0.0.1:${notAllowedPort}/`,
      'file:///etc/passwd',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'ftp://example.com/a.jpg',
      `${origin}/to-private`,
    ]) {
      const response = await ask(client, url);
      expectError(response, 400, MSG.pageAddressRefused);
      expect(response.body.fields.url, url).toBe(MSG.pageAddressRefused);
    }
  });

  test('a missing or malformed url: 400 with fields.url', async () => {
    for (const path of ['/api/pages/images', '/api/pages/images?url=', '/api/pages/images?url=not%20an%20address', `/api/pages/images?url=${'x'.repeat(2100)}`]) {
      const response = await client.get<ErrorBody>(path);
      expect(response.status, path).toBe(400);
      expect(response.body.fields.url, path).toEqual(expect.any(String));
    }
  });

  test('signed out: 401; a read token may call it', async () => {
    expectError(await ask(new ApiClient(server.url), `${origin}/pages/og`), 401);
    const made = await client.post<{ secret: string }>('/api/tokens', { name: 'reader', scope: 'read' });
    expect(made.status).toBe(201);
    expect(expectPictures(await ask(new TokenClient(server.url, made.body.secret), `${origin}/pages/twitter`)).images).toHaveLength(1);
  });

  test('one user has at most 4 reads running at once', async () => {
    const { client: busy } = await signUpUser(server.url, 'pagesbusy');
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(busy, `${origin}/slow`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([422, 422, 422, 422, 429, 429]);
    // Once they are done, the user may read again.
    expectPictures(await ask(busy, `${origin}/pages/twitter`));
  });

  test('readPage: a picture comes back with its bytes, for imports to store', async () => {
    const allow = { cidrs: ['127.0.0.1/32'], ports: [Number(new URL(origin).port)] };
    const read = await readPage(`${origin}/photo`, { allow });
    expect(read.kind).toBe('image');
    expect(read.kind === 'image' && read.bytes.equals(cat)).toBe(true);
    expect(read.url).toBe(`${origin}/cat.jpg`);
    expect(await readPage(`${origin}/pages/twitter`, { allow })).toEqual({ kind: 'page', url: `${origin}/pages/twitter`, title: 'Tweeted', images: [{ url: `${origin}/tw/card.png` }] });
  });
});

describe('picturesOfHtml', () => {
  const page = 'https://example.com/blog/post?id=1';

  test('og:image:secure_url is preferred; og:image:url is og:image; og:title over <title>, cut to 300 characters', () => {
    const found = picturesOfHtml(
      `<meta property="og:image" content="http://a.example/x.jpg"><meta property="og:image:secure_url" content="https://a.example/x.jpg">
       <meta property="og:image:url" content="https://b.example/y.jpg"><meta property="og:title" content="${'é'.repeat(400)}"><title>T</title>`,
      page,
    );
    expect(found.images.map((image) => image.url)).toEqual(['https://a.example/x.jpg', 'https://b.example/y.jpg']);
    expect(found.title).toBe('é'.repeat(300));
  });

  test('srcset with commas in addresses and density descriptors; <picture> sources; lazy attributes', () => {
    const found = picturesOfHtml(
      `<img srcset="https://cdn.example/w_400,h_300/a.jpg 1x, https://cdn.example/w_800,h_600/a.jpg 2x" width="400" height="300">
       <picture><source type="image/svg+xml" srcset="v.svg 3000w"><source srcset="p-1200.webp 1200w, p-600.webp 600w"><img src="p.jpg" width="600" height="400"></picture>
       <img data-lazy-src="/lazy.jpg" src="/placeholder.gif" width="200" height="200">
       <img srcset="icon-64.png 64w" src="icon.png">`,
      page,
    );
    expect(found.images).toEqual([
      { url: 'https://example.com/blog/p-1200.webp', width: 1200, height: 800 },
      { url: 'https://cdn.example/w_800,h_600/a.jpg', width: 800, height: 600 },
      { url: 'https://example.com/lazy.jpg', width: 200, height: 200 },
    ]);
  });

  test('malformed HTML, huge attributes and odd addresses never throw', () => {
    const huge = 'a'.repeat(200_000);
    expect(picturesOfHtml(`<img src="${huge}.jpg"><meta property="og:image" content="${huge}"><title>Still`, page)).toEqual({ title: 'Still', images: [] });
    expect(picturesOfHtml('<<img src=x.jpg <img/ src="y.jpg" <!-- <img src="z.jpg">', page).images.map((image) => image.url)).toEqual(['https://example.com/blog/x.jpg']);
    expect(picturesOfHtml('<img src="javascript:alert(1)"><img src="http://"><img src="https://[::1"><img src="mailto:a@b">', page).images).toEqual([]);
    expect(picturesOfHtml('', 'not a url')).toEqual({ title: '', images: [] });
    expect(picturesOfHtml('<svg><title>An icon</title></svg><title>The page</title>', page).title).toBe('The page');
  });
});
