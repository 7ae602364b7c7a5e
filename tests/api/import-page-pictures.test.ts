import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Import, ImportDetail } from '../../contract/imports.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// A browser's bookmark file (or a Karakeep or Linkwarden export) holds page links and no IMAGE
// attribute: it used to import "0 imported · 5 failed: no image". Each link's picture now comes
// from its page, as GET /api/pages/images finds it (docs/page-images.md): the link itself when it
// is a picture, else its og:image, twitter:image, or its largest <img> (srcset resolved). Only a
// page without any picture fails, named.

const EVENTUALLY_MS = 90_000;
let site: Server;
let siteUrl: string;
/** Each picture a size of its own, so the stored picture tells which one was taken. */
const pictures = new Map<string, Buffer>();

const pages: Record<string, string> = {
  '/recipe':
    '<html><head><title>Soup</title><meta property="og:image" content="/pics/og.jpg"><meta name="twitter:image" content="/pics/unused.jpg"></head><body><img src="/pics/small.jpg" width="120" height="80"></body></html>',
  '/card': '<html><head><meta name="twitter:image" content="/pics/tw.jpg"></head></html>',
  '/gallery': '<html><body><img src="/pics/thumb.jpg" width="40" height="40"><img src="/pics/mid.jpg" srcset="/pics/mid.jpg 400w, /pics/wide.jpg 1000w" alt="A wide one"></body></html>',
  '/words': '<html><head><title>Only words</title></head><body><p>No pictures here.</p></body></html>',
};

beforeAll(async () => {
  const sizes: Record<string, [number, number]> = { og: [640, 400], unused: [300, 300], small: [120, 80], tw: [500, 500], thumb: [40, 40], mid: [400, 300], wide: [1000, 750], cat: [360, 240] };
  for (const [name, [w, h]] of Object.entries(sizes)) pictures.set(name, await jpeg(w, h));
  site = createServer((req, res) => {
    const url = req.url ?? '';
    const picture = /^\/pics\/(\w+)\.jpg$/.exec(url)?.[1] ?? (url === '/cat.jpg' ? 'cat' : undefined);
    if (picture && pictures.has(picture)) return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(pictures.get(picture));
    const page = pages[url];
    if (page) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));
const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(siteUrl).port } }));

/** What a browser writes: folders and links, no IMAGE attribute. */
const bookmarkFile = () =>
  Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
  <DT><H3 ADD_DATE="1700000000">Kitchen</H3>
  <DL><p>
    <DT><A HREF="${siteUrl}/recipe" ADD_DATE="1700000001">Tomato soup</A>
    <DT><A HREF="${siteUrl}/card" ADD_DATE="1700000002">A card</A>
  </DL><p>
  <DT><A HREF="${siteUrl}/gallery" ADD_DATE="1700000003">Gallery</A>
  <DT><A HREF="${siteUrl}/cat.jpg" ADD_DATE="1700000004">cat.jpg</A>
  <DT><A HREF="${siteUrl}/words" ADD_DATE="1700000005">Just words</A>
</DL><p>
`);

test("a bookmark file of page links imports each with its page's picture and its source; a page without one is the only failure, named", { timeout: EVENTUALLY_MS + 30_000 }, async () => {
  const { client, user } = await signUpUser(server.url, 'mover');
  const posted = await client.upload<{ import: Import }>('/api/imports', { bytes: bookmarkFile(), name: 'bookmarks.html', type: 'text/html' });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  expect(posted.body.import).toMatchObject({ kind: 'netscape', total: 5 });
  const started = Date.now();
  let detail: ImportDetail;
  for (;;) {
    detail = (await client.get<ImportDetail>(`/api/imports/${posted.body.import.id}`)).body;
    if (detail.import.status === 'done' || detail.import.status === 'failed') break;
    if (Date.now() - started > EVENTUALLY_MS) throw new Error(`not done: ${JSON.stringify(detail)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(detail.import).toMatchObject({ status: 'done', done: 4, failed: 1 });
  expect(detail.failures).toEqual([{ item: 'Just words', reason: 'no picture on the page' }]);

  const pins = (await client.get<PinList>(`/api/pins/?userId=${user.id}&limit=10`)).body.pins;
  const byTitle = new Map(pins.map((pin) => [pin.title, pin]));
  const size = (title: string) => {
    const pin = byTitle.get(title) as Pin;
    return pin.image && [pin.image.width, pin.image.height];
  };
  // og:image first; twitter:image when it is all; the widest srcset candidate; the link itself.
  expect(size('Tomato soup')).toEqual([640, 400]);
  expect(size('A card')).toEqual([500, 500]);
  expect(size('Gallery')).toEqual([1000, 750]);
  expect(size('cat.jpg')).toEqual([360, 240]);
  expect(Object.fromEntries(pins.map((pin) => [pin.title, pin.source_url]))).toEqual({
    'Tomato soup': `${siteUrl}/recipe`,
    'A card': `${siteUrl}/card`,
    Gallery: `${siteUrl}/gallery`,
    'cat.jpg': `${siteUrl}/cat.jpg`,
  });
});
