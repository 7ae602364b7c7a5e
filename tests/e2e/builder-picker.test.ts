// The bookmarklet's window and New Pin's board, in the system Chromium (docs/tokens-and-capture.md):
// on a page with several pictures the bookmarklet opens a window wide enough for the site's header
// with the page's pictures to choose from (GET /api/pages/images) and a board; Save says "Saved to
// {board}" and the window closes by itself; the pin is on the board with the chosen picture. On New
// Pin a dropped file names the pin, and the chosen board holds it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardList, BoardPage } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { BOOKMARKLET_WINDOW } from '../../frontend/pages/tokens/bookmarklet.ts';
import { type FixtureSites, startFixtureSites } from '../support/fixture-sites.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectPath, expectVisible, newAccount, PAGE_WAIT_MS, PHONE, screenshot, signUp } from './browser.ts';

let sites: FixtureSites;
let gallery: Server;
let galleryOrigin: string;
/** The pictures of the gallery page, as served by the fixture picture host. */
const picture = (size: string) => `${sites.images}/photo/${size}.jpg`;

/** A page "out on the web": a shared picture (og:image) it does not show, three large ones it does, and an icon. */
function galleryPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour gallery</title>
    <meta property="og:image" content="${picture('1200x630')}"></head><body><h1>The harbour</h1>
    <img src="${picture('40x40')}" alt="" width="40" height="40">
    <img src="${picture('900x600')}" alt="The harbour at dawn" width="900" height="600">
    <img src="${picture('640x480')}" alt="Boats" width="640" height="480">
    <img src="${picture('500x500')}" alt="A gull" width="500" height="500"></body></html>`;
}

beforeAll(async () => {
  sites = await startFixtureSites();
  gallery = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/gallery.html') return void res.writeHead(404).end();
    // The strictest script policy: the bookmarklet still works, as it loads nothing into the page.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" }).end(galleryPage());
  });
  await new Promise<void>((resolve) => gallery.listen(0, '127.0.0.1', resolve));
  galleryOrigin = `http://127.0.0.1:${(gallery.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => gallery?.close(resolve));
  await sites?.close();
});
// The fixture sites stand for public ones: loopback addresses are otherwise never read or imported.
const app = useBrowserServer(() => ({
  env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: `${new URL(galleryOrigin).port},${sites.imagesPort}` },
}));

/** Makes a board through the app's own form; returns its id. */
async function makeBoard(page: Page, name: string): Promise<number> {
  await page.goto('/boards/create');
  await page.getByLabel('Board Name').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expectPath(page, '/boards');
  const { boards } = (await (await page.request.get('/api/boards/')).json()) as BoardList;
  const board = boards.find((one) => one.name === name);
  expect(board?.visibility).toBe('private');
  return board?.id ?? 0;
}

/**
 * Chromium as the suite's, on a screen of 1600 × 1000: headless, its screen is 800 × 600 otherwise,
 * and a window never opens larger than the screen (the bookmarklet asks for no more than it either).
 */
function launchOnWideScreen(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--screen-info={1600x1000}'],
  });
}

/** Clicking a bookmark runs its `javascript:` address in the page (reported as an aborted navigation). */
async function clickBookmark(page: Page, href: string): Promise<void> {
  await page.goto(href).catch((error: unknown) => {
    if (!String(error).includes('ERR_ABORTED')) throw error;
  });
}

/** A screenshot of the window as it is (the window's own size), beside the suite's others. */
async function windowShot(page: Page, name: string): Promise<void> {
  const size = await page.evaluate(() => `${window.innerWidth}x${window.innerHeight}`);
  await page.screenshot({ path: `artifacts/screenshots/${name}-${size}.jpg`, type: 'jpeg', quality: 85 });
}

/** The page's widths: the header's content against its box, and the document against the window. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const nav = document.querySelector('.nav__inner') as HTMLElement;
    return { window: window.innerWidth, page: document.documentElement.scrollWidth, nav: nav.scrollWidth, navBox: nav.clientWidth };
  });
}

describe("the bookmarklet's window", () => {
  it("offers the page's pictures and a board; Save says where, and the window closes by itself", async () => {
    const tab = await app.openTab();
    await signUp(tab.page, newAccount('picker'));
    const boardId = await makeBoard(tab.page, 'Harbour trip');
    await tab.page.goto('/tokens');
    const href = (await (await expectVisible(tab.page.getByRole('link', { name: 'Save to Pinboard' }))).getAttribute('href')) ?? '';
    expect(href).toMatch(/^javascript:/);

    // Windows take the size the bookmarklet asks for in a context without a fixed viewport.
    const wide = await launchOnWideScreen();
    const context = await wide.newContext({ baseURL: app.url, viewport: null, storageState: await tab.context.storageState() });
    const article = await context.newPage();
    article.setDefaultTimeout(PAGE_WAIT_MS);
    await article.goto(`${galleryOrigin}/gallery.html`);
    await expect.poll(() => article.evaluate(() => Array.from(document.images).every((image) => image.complete))).toBe(true);
    const opened = context.waitForEvent('page', { timeout: PAGE_WAIT_MS });
    await clickBookmark(article, href);
    const builder = await opened;
    builder.setDefaultTimeout(PAGE_WAIT_MS);
    const errors: string[] = [];
    builder.on('pageerror', (error) => errors.push(error.message));
    await expectPath(builder, '/pin-builder');
    expect(new URL(builder.url()).searchParams.get('media')).toBe(picture('900x600'));
    expect(new URL(builder.url()).searchParams.get('popup')).toBe('1');
    await expectVisible(builder.getByRole('heading', { name: 'Create a New Pin' }));

    // Wide enough: the header fits, nothing scrolls sideways.
    const widths = await overflow(builder);
    expect(widths.window).toBe(BOOKMARKLET_WINDOW.width);
    expect(widths.nav).toBeLessThanOrEqual(widths.navBox);
    expect(widths.page).toBeLessThanOrEqual(widths.window);

    // The pictures: the bookmarklet's (the largest shown) first and chosen, then the page's, best first.
    const group = builder.getByRole('group', { name: 'Pictures on this page (4)' });
    await expectVisible(group);
    const radios = group.getByRole('radio');
    expect(await radios.count()).toBe(4);
    expect(await radios.nth(0).isChecked()).toBe(true);
    expect(await radios.nth(0).getAttribute('aria-label')).toBe('The harbour at dawn, 900 by 600');
    expect(await builder.getByLabel('Image URL').inputValue()).toBe(picture('900x600'));
    await expect.poll(() => group.locator('img').evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await expectAccessible(builder, 'the pin builder with its pictures');
    await windowShot(builder, 'builder-popup');

    // The second picture (the page's shared one), by a click; the arrow keys move the choice too.
    await group.locator('label').nth(1).click();
    expect(await radios.nth(1).isChecked()).toBe(true);
    await builder.keyboard.press('ArrowRight');
    expect(await radios.nth(2).isChecked()).toBe(true);
    await builder.keyboard.press('ArrowLeft');
    expect(await radios.nth(1).isChecked()).toBe(true);
    expect(await builder.getByLabel('Image URL').inputValue()).toBe(picture('1200x630'));
    await expectVisible(builder.getByRole('img', { name: 'Preview of the image' }));

    // The board, and who will see the pin.
    const board = builder.getByLabel('Board', { exact: true });
    await expect.poll(() => board.locator('option').count()).toBe(2);
    await board.selectOption({ label: 'Harbour trip' });
    await expectVisible(builder.getByText("Private: Only you and the boards' members can see this pin"));
    await windowShot(builder, 'builder-popup-chosen');

    const closed = builder.waitForEvent('close', { timeout: PAGE_WAIT_MS });
    await builder.getByRole('button', { name: 'Save Pin' }).click();
    await expectVisible(builder.getByRole('heading', { name: 'Saved to Harbour trip' }));
    expect(await builder.getByRole('link', { name: 'See it' }).getAttribute('target')).toBe('_blank');
    await expectVisible(builder.getByRole('button', { name: 'Close' }));
    expect(new URL(builder.url()).pathname).toBe('/pin-builder'); // never into the rest of the app
    await windowShot(builder, 'builder-saved');
    await closed; // by itself, about 2 s later
    expect(errors).toEqual([]);

    // On the board, with the chosen picture (1200 × 630, once imported), from the page, private as the board is.
    const onBoard = (await (await tab.page.request.get(`/api/boards/${boardId}`)).json()) as BoardPage;
    expect(onBoard.pins).toHaveLength(1);
    const pinOf = async () => (await (await tab.page.request.get(`/api/pins/${onBoard.pins[0]?.id}`)).json()) as Pin;
    expect(await pinOf()).toMatchObject({ title: 'The harbour at dawn', source_url: `${galleryOrigin}/gallery.html`, visibility: 'private' });
    await expect.poll(async () => (await pinOf()).image, { timeout: PAGE_WAIT_MS }).not.toBeNull();
    expect((await pinOf()).image).toMatchObject({ width: 1200, height: 630 });
    expect(tab.errors).toEqual([]);
    await context.close();
    await wide.close();
    await tab.context.close();
  });
});

describe('New Pin', () => {
  it('names the pin from a dropped file and puts it on the chosen board', async () => {
    const tab = await app.openTab(DESKTOP);
    const { page } = tab;
    await signUp(page, newAccount('newpin'));
    const boardId = await makeBoard(page, 'Beach days');
    await page.goto('/pins/new');
    await expectVisible(page.getByRole('heading', { name: 'Create a New Pin' }));
    // A real drop of a picture drawn in the page.
    const zone = await expectVisible(page.getByTestId('image-drop-zone'));
    await zone.evaluate(async (element) => {
      const canvas = new OffscreenCanvas(320, 200);
      const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      context.fillStyle = '#e8b04a';
      context.fillRect(0, 0, 320, 200);
      context.fillStyle = '#2a7ab8';
      context.fillRect(0, 120, 320, 80);
      const transfer = new DataTransfer();
      transfer.items.add(new File([await canvas.convertToBlob({ type: 'image/png' })], 'sunny_beach-day.png', { type: 'image/png' }));
      element.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('sunny beach day');
    await expectVisible(page.getByText('Image uploaded.'));
    const board = page.getByLabel('Board', { exact: true });
    await expect.poll(() => board.locator('option').count()).toBe(2);
    await expectVisible(page.getByText('Public: Anyone can see this pin'));
    await board.selectOption({ label: 'Beach days' });
    await expectVisible(page.getByText("Private: Only you and the boards' members can see this pin"));
    await screenshot(page, 'new-pin-board');
    await expectAccessible(page, 'New Pin with a board');
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const box = await board.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await screenshot(page, 'new-pin-board');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Save Pin' }).click();
    await expectPath(page, '/pins');
    await expectVisible(page.getByText('Saved to Beach days'));
    const onBoard = (await (await page.request.get(`/api/boards/${boardId}`)).json()) as BoardPage;
    expect(onBoard.pins.map((pin) => [pin.title, pin.visibility])).toEqual([['sunny beach day', 'private']]);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});
