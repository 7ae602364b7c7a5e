// The home page's HTML (docs/footprint.md): it carries its visit's shuffle seed, the first page of
// that shuffle as GET /api/pins/ answers it, and preloads of that page's first thumbnails, so a
// phone draws the grid without another round trip. The client's index.html here is a stand-in:
// what is checked is what the server adds to it.
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { beforeAll, expect, test } from 'vitest';
import { clientPage } from '../../backend/http/client-page.ts';
import { HOME_PRELOADED_IMAGES, type HomeFirstPage, type ServedSession } from '../../contract/home.ts';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import type { PinList } from '../../contract/pins.ts';
import { thumbnailSrcSet } from '../../contract/thumbnails.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { newPin } from '../support/factories.ts';
import { pngWithAlpha } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

const staticDir = mkdtempSync(path.join(tmpdir(), 'pinboard-home-page-'));
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head><title>Pinboard</title></head><body><div id="root"></div></body></html>');
const server = useTestServer({ env: { STATIC_DIR: staticDir } });

const HOSTILE_TITLE = 'Nice </script><script>alert(1)</script> & "quotes"';

beforeAll(async () => {
  const { client } = await signUpUser(server.url, 'home');
  await newPin(client, HOSTILE_TITLE);
  for (let i = 0; i < 3; i++) {
    const upload = await client.upload<ImageUploaded>('/api/images/', { bytes: await pngWithAlpha(400 + i * 100, 300), name: 'p.png', type: 'image/png' });
    expect(upload.status).toBe(201);
    await newPin(client, { title: `Stored ${i}`, imageUrl: upload.body.image.url });
  }
});

async function homeHtml(): Promise<string> {
  const response = await fetch(`${server.url}/`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('private, no-cache');
  return response.text();
}

function servedPage(html: string): HomeFirstPage {
  const json = /<script type="application\/json" id="pinboard-home-first-page">(.*?)<\/script>/s.exec(html)?.[1];
  if (json === undefined) throw new Error('no first page in the HTML');
  return JSON.parse(json) as HomeFirstPage;
}

test('the home page carries its seed and the first page of that shuffle, as the API answers it', async () => {
  const html = await homeHtml();
  const seed = /<meta name="pinboard-home-seed" content="([0-9]+)">/.exec(html)?.[1];
  expect(seed).toBeDefined();
  const served = servedPage(html);
  expect(served.seed).toBe(Number(seed));
  const api = await new ApiClient(server.url).get<PinList>(`/api/pins/?order=shuffle&seed=${seed}`);
  expect(served.page).toEqual(api.body);
  expect(served.page.pins).toHaveLength(4);
  // A title cannot end the element early: it is read back whole.
  expect(served.page.pins.map((pin) => pin.title)).toContain(HOSTILE_TITLE);
  expect(html).not.toContain('<script>alert(1)');
  // The page is served in place of its request: no preload of it is needed.
  expect(html).not.toContain('as="fetch"');
});

test('the first thumbnails of that page are preloaded, as the grid will ask for them', async () => {
  const html = await homeHtml();
  const { page } = servedPage(html);
  const expected = page.pins.flatMap((pin) => (pin.image ? [thumbnailSrcSet(pin.image)] : [])).slice(0, HOME_PRELOADED_IMAGES);
  expect(expected).toHaveLength(HOME_PRELOADED_IMAGES);
  const preloads = [...html.matchAll(/<link rel="preload" as="image" fetchpriority="high" imagesrcset="([^"]+)" imagesizes="236px">/g)].map((m) => m[1]);
  expect(preloads).toEqual(expected);
  for (const srcset of preloads) {
    for (const url of (srcset ?? '').split(', ').map((candidate) => candidate.split(' ')[0] as string)) {
      expect((await fetch(server.url + url)).status, url).toBe(200);
    }
  }
});

function servedSession(html: string): ServedSession {
  const json = /<script type="application\/json" id="pinboard-session">(.*?)<\/script>/s.exec(html)?.[1];
  if (json === undefined) throw new Error('no session in the HTML');
  return JSON.parse(json) as ServedSession;
}

test('every page carries what GET /api/auth/ would answer: null for a visitor, the user once signed in', async () => {
  for (const path of ['/', '/pins/1', '/boards']) {
    expect(servedSession(await (await fetch(`${server.url}${path}`)).text()), path).toEqual({ user: null, site: { visibility: 'public', signups: 'open' } });
  }
  const { client } = await signUpUser(server.url, 'served');
  const me = await client.get<ServedSession>('/api/auth/');
  expect(me.body.user).not.toBeNull();
  for (const path of ['/', '/pins/1']) {
    const page = await client.request('GET', path);
    expect(servedSession(String(page.body)), path).toEqual(me.body);
  }
});

test('each visit gets its own seed; other pages carry none', async () => {
  const seeds = new Set<number>();
  for (let i = 0; i < 5; i++) seeds.add(servedPage(await homeHtml()).seed);
  expect(seeds.size).toBeGreaterThan(1);
  const other = await (await fetch(`${server.url}/pins/1`)).text();
  expect(other).not.toContain('pinboard-home-');
  expect(other).not.toContain('rel="preload"');
});

test("a pin's address marks its page so the static shell paints the pin skeleton; other pages are not marked", async () => {
  const html = async (pathname: string) => (await fetch(`${server.url}${pathname}`)).text();
  expect(await html('/pins/1')).toMatch(/<html[^>]* class="shell-pin"/);
  for (const pathname of ['/', '/pins/new', '/pins/1/edit', '/boards/1']) expect(await html(pathname), pathname).not.toContain('shell-pin');
});

test('when the session and the first page cannot be read, the home page is still served, with a preload of that page instead', async () => {
  const failures: unknown[] = [];
  const app = express();
  const down = () => Promise.reject(new Error('database down'));
  app.get('/{*path}', clientPage(path.join(staticDir, 'index.html'), { session: down, firstPage: down, onError: (error) => failures.push(error) }));
  const listening = app.listen(0);
  try {
    await once(listening, 'listening');
    const { port } = listening.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const seed = /<meta name="pinboard-home-seed" content="([0-9]+)">/.exec(html)?.[1];
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="/api/pins/?order=shuffle&amp;seed=${seed}">`);
    expect(html).not.toContain('pinboard-home-first-page');
    expect(html).not.toContain('pinboard-session');
    expect(failures).toHaveLength(2);
  } finally {
    listening.close();
  }
});
