// Stored images in the system Chromium (docs/images.md): pins made from images uploaded
// through POST /api/images/ reserve their card's box from the image's size, so the home grid does
// not shift while it loads and scrolls; a phone's cards fetch the 236 px thumbnails; and an image
// uploaded on the New Pin page shows up on another user's open home page without a reload.
// Timings are printed, never asserted.
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type StoredImage } from '../../contract/images.ts';
import { ImageUploaded } from '../../contract/duplicates.ts';
import type { Pin } from '../../contract/pins.ts';
import { DEMO_IMAGES_DIR, demoImages } from '../../db/demo-catalog.ts';
import { columnWidth, gridColumns } from '../../frontend/components/grid/columns.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PAGE_WAIT_MS, PHONE, expectAccessible, expectPath, expectVisible, newAccount, screenshot, signUp } from './browser.ts';

/** Pictures of every shape (width × height), drawn from the seed SVGs, all wider than 736 px. */
const SHAPES: ReadonlyArray<readonly [number, number]> = [
  [1200, 800],
  [800, 1200],
  [1000, 1000],
  [900, 1600],
  [1600, 900],
  [960, 1440],
  [1500, 1000],
  [1100, 1700],
];
const SOURCES = demoImages()
  .filter((image) => image.kind === 'photo')
  .slice(0, 8)
  .map((image) => path.join(DEMO_IMAGES_DIR, image.file));
/** Pins in the grid: several screens of scrolling at 1280 × 800, a few pages of the API. */
const BULK = 240;

let owner: ApiClient;
const uploaded: StoredImage[] = [];

/** A JPEG of one of the demo's photos, cropped to `width` × `height`. */
function picture(index: number, width: number, height: number): Promise<Buffer> {
  return sharp(SOURCES[index % SOURCES.length] as string)
    .resize(width, height, { fit: 'cover' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** POST /api/images/ as the client sends it: multipart, the file in `file`, cookies and the anti-forgery header. */
async function upload(client: ApiClient, bytes: Buffer, name: string): Promise<StoredImage> {
  if (!client.csrfToken) await client.get('/api/auth/');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(`${client.baseUrl}/api/images/`, { method: 'POST', body: form, headers: { cookie, 'x-xsrf-token': client.csrfToken ?? '' } });
  const text = await response.text();
  expect(response.status, `POST /api/images/ answered ${text.slice(0, 300)}`).toBe(201);
  return ImageUploaded.parse(JSON.parse(text)).image;
}

const app = useBrowserServer({ redis: true });

beforeAll(async () => {
  owner = (await signUpUser(app.url, 'imgowner')).client;
  const started = Date.now();
  for (const [index, [width, height]] of SHAPES.entries()) {
    const image = await upload(owner, await picture(index, width, height), `picture-${index}.jpg`);
    expect([image.width, image.height]).toEqual([width, height]);
    uploaded.push(image);
    const created = await owner.post<Pin>('/api/pins/', { title: `Uploaded picture ${index}`, imageUrl: image.url, description: '' });
    expect(created.status).toBe(201);
    // The pin carries the stored image it was made from.
    expect(created.body.image?.thumbnails).toEqual(image.thumbnails);
  }
  console.log(`uploaded ${SHAPES.length} images and made their pins in ${Date.now() - started} ms`);
  // Many more pins on the same stored images, written with SQL as the grid tests do.
  await sql`
    insert into pins (user_id, title, image_url, image_sha256, description, created_at, updated_at)
    select p.user_id,
           'Bulk picture ' || n || case when n % 3 = 0 then ' with a longer title that wraps onto a second line' else '' end,
           p.image_url, p.image_sha256, '', now() - n * interval '1 minute', now() - n * interval '1 minute'
    from generate_series(1, ${BULK}) as n
    join lateral (select * from pins where image_sha256 is not null order by id offset (n % ${SHAPES.length}) limit 1) p on true`.execute(app.server.database.db);
});

/** Records every layout shift of the tab's documents from the start (set before the page opens). */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    const shifts: Array<{ value: number; at: number; sources: string[] }> = [];
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{
        value: number;
        startTime: number;
        sources?: Array<{ node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
      }>) {
        const sources = (entry.sources ?? []).map((s) => {
          const node = s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName);
          return `${node} ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}`;
        });
        shifts.push({ value: entry.value, at: Math.round(entry.startTime), sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

function layoutShifts(page: Page): Promise<Array<{ value: number; at: number; sources: string[] }>> {
  return page.evaluate(() => (window as unknown as { layoutShifts: Array<{ value: number; at: number; sources: string[] }> }).layoutShifts);
}

/** Waits until every card image within the viewport has finished loading. */
async function viewportImagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll<HTMLImageElement>('article[data-pin-id] img')).every((img) => {
        const box = img.getBoundingClientRect();
        const inView = box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
        return !inView || (img.complete && img.naturalWidth > 0);
      }),
    undefined,
    { timeout: PAGE_WAIT_MS, polling: 100 },
  );
}

/** Scrolls down by `by` pixels, then waits for the next page (if one was asked for) and the images in view. */
async function scrollDown(page: Page, by: number): Promise<void> {
  await page.evaluate((dy) => window.scrollBy(0, dy), by);
  await page.waitForTimeout(150); // masonic follows the scroll at 12 frames a second
  await page.waitForFunction(() => !/^Loading/.test(document.querySelector('.masonry__footer')?.textContent ?? ''), undefined, { timeout: PAGE_WAIT_MS });
  await viewportImagesLoaded(page);
}

/** The card images on screen: the file each shows, its `sizes`, and whether its placeholder layer is there. */
function cardImages(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLImageElement>('article[data-pin-id] img'))
      .filter((img) => img.complete && img.naturalWidth > 0)
      .map((img) => ({ file: new URL(img.currentSrc).pathname, sizes: img.sizes, placeholder: Boolean(img.parentElement?.querySelector('.pin-image__placeholder')) })),
  );
}

/** The /media/ paths a page requests. */
function followMedia(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/media/')) paths.push(url.pathname);
  });
  return paths;
}

describe('stored images in the browser', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`the home grid records no layout shift while it loads and scrolls (${viewport.width}×${viewport.height})`, async () => {
      const tab = await app.openTab(viewport);
      await recordLayoutShifts(tab.page);
      const started = Date.now();
      await tab.page.goto('/');
      await expectVisible(tab.page.locator('article[data-pin-id] .pin-image__placeholder'));
      await viewportImagesLoaded(tab.page);
      console.log(`${viewport.width}: first screen of images loaded after ${Date.now() - started} ms`);
      for (let step = 0; step < 12; step++) await scrollDown(tab.page, Math.round(viewport.height * 0.9));
      const shown = await cardImages(tab.page);
      const shifts = await layoutShifts(tab.page);
      console.log(
        `${viewport.width}: scrolled to ${await tab.page.evaluate(() => window.scrollY)} px in ${Date.now() - started} ms; ${shown.length} images loaded; layout shifts: ${JSON.stringify(shifts)}`,
      );
      expect(shown.length).toBeGreaterThan(8);
      expect(shown.every((image) => image.placeholder)).toBe(true);
      expect(shifts.reduce((sum, shift) => sum + shift.value, 0)).toBe(0);

      // The observer does see a shift when there is one: move a card that is in view.
      await tab.page.evaluate(() => {
        const cell = Array.from(document.querySelectorAll<HTMLElement>('.masonry__items > [role="listitem"]')).find((c) => {
          const box = c.getBoundingClientRect();
          return c.style.visibility !== 'hidden' && box.top > 0 && box.bottom < window.innerHeight;
        });
        if (cell) cell.style.top = `${parseFloat(cell.style.top) + 80}px`;
      });
      await expect.poll(async () => (await layoutShifts(tab.page)).length, { timeout: PAGE_WAIT_MS }).toBeGreaterThan(0);
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    });
  }

  it('at 390 px the cards load the 236 px thumbnails (and the pin page the 736 px one)', async () => {
    const small = new Set(uploaded.map((image) => image.thumbnails['236']));
    const large = new Set(uploaded.map((image) => image.thumbnails['736']));
    const originals = new Set(uploaded.map((image) => image.url));
    const tab = await app.openTab(PHONE);
    const requested = followMedia(tab.page);
    await tab.page.goto('/');
    await expectVisible(tab.page.locator('article[data-pin-id] img'));
    await viewportImagesLoaded(tab.page);
    for (let step = 0; step < 4; step++) await scrollDown(tab.page, 700);

    const shown = await cardImages(tab.page);
    const gridWidth = await tab.page.evaluate(() => document.querySelector('.masonry')?.clientWidth ?? 0);
    const column = columnWidth(gridWidth, gridColumns(gridWidth));
    console.log(`390 px: grid ${gridWidth} px, column ${column} px; ${shown.length} images shown; requested ${JSON.stringify([...new Set(requested)])}`);
    expect(column).toBeLessThanOrEqual(236);
    expect(shown.length).toBeGreaterThan(4);
    for (const image of shown) {
      expect(small.has(image.file), image.file).toBe(true);
      expect(image.sizes).toBe(`${column}px`);
    }
    expect(requested.filter((path) => small.has(path)).length).toBeGreaterThan(0);
    expect(requested.filter((path) => large.has(path) || originals.has(path))).toEqual([]);

    // The pin page shows the 736 px thumbnail; the original only on demand.
    const pinId = await tab.page.locator('article[data-pin-id]').first().getAttribute('data-pin-id');
    await tab.page.goto(`/pins/${pinId}`);
    const detail = tab.page.locator('.pin-detail__media img');
    await expectVisible(detail);
    await tab.page.waitForFunction(() => document.querySelector<HTMLImageElement>('.pin-detail__media img')?.complete ?? false, undefined, { timeout: PAGE_WAIT_MS });
    const file = await detail.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname);
    expect(large.has(file), file).toBe(true);
    const original = tab.page.getByRole('link', { name: 'Open original image' });
    expect(originals.has((await original.getAttribute('href')) ?? '')).toBe(true);
    expect(requested.filter((path) => originals.has(path))).toEqual([]);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('an image uploaded on the New Pin page appears on another user’s open home page without a reload', async () => {
    const reader = await app.openTab();
    const connected = new Promise<void>((resolve) => {
      reader.page.on('websocket', (ws) => {
        if (ws.url().includes('/socket.io/')) ws.on('framereceived', ({ payload }) => String(payload).startsWith('40') && resolve());
      });
    });
    await reader.page.goto('/');
    await expectVisible(reader.page.locator('article[data-pin-id]'));
    await connected;
    await reader.page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    const author = await app.openTab();
    await signUp(author.page, newAccount('uploader'));
    await author.page.goto('/pins/new');
    const title = `Uploaded in the browser ${Date.now()}`;
    await author.page.getByLabel('Title').fill(title);
    const bytes = await picture(3, 1000, 1400);
    const started = Date.now();
    await author.page.getByLabel('Image file').setInputFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: bytes });
    await expectVisible(author.page.getByAltText('Preview of the image'));
    await expectVisible(author.page.getByText('Image uploaded.'));
    console.log(`upload answered after ${Date.now() - started} ms`);
    const imageUrl = await author.page.getByLabel('Image URL').inputValue();
    expect(imageUrl).toMatch(/^\/media\//);
    await screenshot(author.page, 'new-pin-uploaded');
    await expectAccessible(author.page, 'new pin with an uploaded image');
    await author.page.getByRole('button', { name: 'Save Pin' }).click();
    await expectPath(author.page, '/pins');

    // The reader's grid does not move under them: the pin waits behind "1 new pin".
    const pill = reader.page.getByRole('button', { name: '1 new pin' });
    await expectVisible(pill);
    await pill.click();
    const card = reader.page.locator('article[data-pin-id]', { has: reader.page.getByRole('link', { name: title }) });
    await expectVisible(card);
    await reader.page.waitForFunction(
      (name) => {
        const article = Array.from(document.querySelectorAll('article[data-pin-id]')).find((a) => a.textContent?.includes(name));
        const img = article?.querySelector('img');
        return Boolean(img?.complete && img.naturalWidth > 0);
      },
      title,
      { timeout: PAGE_WAIT_MS },
    );
    const shown = await card.locator('img').evaluate((img: HTMLImageElement) => ({ file: new URL(img.currentSrc).pathname, ratio: img.parentElement?.style.aspectRatio ?? '' }));
    const created = (await (await fetch(`${app.url}/api/pins/${await card.getAttribute('data-pin-id')}`)).json()) as Pin;
    expect(created.image_url).toBe(imageUrl);
    expect([created.image?.width, created.image?.height]).toEqual([1000, 1400]);
    expect(shown.file).toBe(created.image?.thumbnails['236']);
    const [w = 'NaN', h = '1'] = shown.ratio.split('/');
    expect(Number(w) / Number(h)).toBeCloseTo(1000 / 1400, 3);
    expect(await reader.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await screenshot(reader.page, 'home-with-uploaded-image', { overlay: true });
    expect(reader.errors).toEqual([]);
    expect(author.errors).toEqual([]);
    await author.context.close();
    await reader.context.close();
  });
});
