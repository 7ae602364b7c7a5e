// The browser extension (docs/extension.md) in the system Chromium, the unpacked build loaded,
// against the real server and fixture sites on 127.0.0.1 (pages on one port, their pictures on
// another): connecting through the app's Connect page, the hover Save on a page that allows no
// script, the context menu on a members-only picture, twenty pictures from the popup at once, the
// fallback to import by URL, Undo, the toolbar badge, a picture saved already (the app's warning,
// Save anyway, the alt text), and a hostile page whose srcset names an intranet picture. Every save
// is checked on the server.
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardPage } from '../../contract/boards.ts';
import type { PinLookup } from '../../contract/pin-lookup.ts';
import type { Pin } from '../../contract/pins.ts';
import { type FixtureSites, INTRANET_COOKIE, KITTEN_SIZE, startFixtureSites } from '../support/fixture-sites.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { ensureClientBuilt } from '../../scripts/lib/browser.ts';
import { DESKTOP, expectAccessible, expectVisible, newAccount, PAGE_WAIT_MS, PHONE, screenshot, signUp } from './browser.ts';
import {
  clickShadow,
  type ExtensionBrowser,
  ensureExtensionBuilt,
  FIREFOX_BUILD_DIR,
  launchWithExtension,
  PUBLIC_HOST,
  shadowElements,
  shadowMode,
  shadowStyle,
  waitForShadow,
  WEB_EXT_BIN,
} from './extension-browser.ts';

let sites: FixtureSites;
let ext: ExtensionBrowser;
let app: Page;
const account = newAccount('ext');

beforeAll(async () => {
  ensureClientBuilt();
  ensureExtensionBuilt();
  sites = await startFixtureSites();
});
afterAll(async () => {
  await sites?.close();
});
// The fallback test lets the server import a picture from the fixture host (the SSRF guard
// refuses loopback addresses otherwise).
const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: String(sites.imagesPort) } }));
// Chromium with the unpacked extension, not useBrowserServer's plain one.
beforeAll(async () => {
  ext = await launchWithExtension(server.url);
});
afterAll(async () => {
  await ext?.close();
});

type WorkerScope = {
  chrome: {
    tabs: {
      query(q: { url?: string }): Promise<Array<{ id: number; url: string }>>;
      sendMessage(tabId: number, message: unknown, options: { frameId: number }): Promise<unknown>;
    };
    action: { getBadgeText(d: { tabId: number }): Promise<string> };
  };
  pinboardContextMenuClicked(info: { menuItemId: string; srcUrl: string; pageUrl: string; editable: boolean }, tab: unknown): Promise<void>;
};

/** The tab id the extension knows a page's tab by. */
function tabIdOf(url: string): Promise<number> {
  return ext.worker.evaluate(async (u) => {
    const [tab] = await (globalThis as unknown as WorkerScope).chrome.tabs.query({ url: u });
    if (!tab) throw new Error(`no tab for ${u}`);
    return tab.id;
  }, url);
}

/**
 * "Save to Pinboard" on the image's context menu. The browser's own menu cannot be clicked by a
 * test driver, so this calls the very handler the menu's click calls (registered with
 * contextMenus.onClicked), in the service worker, with what Chromium passes it for an image.
 */
async function contextMenuSave(page: Page, imageSelector: string): Promise<void> {
  const srcUrl = await page.locator(imageSelector).evaluate((img: HTMLImageElement) => img.currentSrc || img.src);
  await ext.worker.evaluate(
    async ({ srcUrl, pageUrl }) => {
      const scope = globalThis as unknown as WorkerScope;
      const [tab] = await scope.chrome.tabs.query({ url: pageUrl });
      await scope.pinboardContextMenuClicked({ menuItemId: 'pinboard-save-image', srcUrl, pageUrl, editable: false }, tab);
    },
    { srcUrl, pageUrl: page.url() },
  );
}

function badgeText(tabId: number): Promise<string> {
  return ext.worker.evaluate((id) => (globalThis as unknown as WorkerScope).chrome.action.getBadgeText({ tabId: id }), tabId);
}

/** The user's pins saved from a page, as the server answers them (the app tab's session). */
async function pinsFrom(pageUrl: string): Promise<Pin[]> {
  const res = await app.request.get(`${server.url}/api/pins/lookup?sourceUrl=${encodeURIComponent(pageUrl)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as PinLookup).pins;
}

/**
 * Opens a fixture page and waits until the extension's content script in it answers (it starts
 * once the page is idle), as a user's first right-click comes after the page is there.
 */
async function openSite(file: string, base = sites.site): Promise<Page> {
  const page = await ext.context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  await page.goto(`${base}/${file}`);
  const tabId = await tabIdOf(page.url());
  const answers = () =>
    ext.worker.evaluate(
      (id) =>
        (globalThis as unknown as WorkerScope).chrome.tabs.sendMessage(id, { type: 'list-images' }, { frameId: 0 }).then(
          () => true,
          () => false,
        ),
      tabId,
    );
  await expect.poll(answers, { timeout: PAGE_WAIT_MS }).toBe(true);
  return page;
}

/** Points at the image (and keeps nudging the pointer, as a hand does) until the Save button shows. */
async function hoverForSave(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  let nudge = 0;
  await expect
    .poll(
      async () => {
        nudge = (nudge + 1) % 2;
        await page.mouse.move(box.x + box.width / 2 + nudge, box.y + box.height / 2);
        return (await shadowElements(page, '.save')).some((b) => b.center);
      },
      { timeout: PAGE_WAIT_MS },
    )
    .toBe(true);
  return waitForShadow(page, '.save', 'Save');
}

/** Uploaded pictures are the server's own files; imported-by-URL pins keep the picture's address. */
const isStoredCopy = (pin: Pin) => pin.image_url.startsWith('/media/') || pin.image_url.startsWith(`${server.url}/media/`);

describe('the browser extension', () => {
  it('installs, asks for the server, and connects through the app’s Connect page with a write token named for the browser', async () => {
    // A fresh install opens its options, asking for the Pinboard address.
    const isOptions = (p: Page) => p.url().startsWith(ext.extensionUrl('options.html'));
    await expect.poll(() => ext.context.pages().some(isOptions), { timeout: PAGE_WAIT_MS }).toBe(true);
    const opts = ext.context.pages().find(isOptions) as Page;
    await opts.waitForLoadState('load');
    await opts.getByLabel('Address').fill(server.url);
    await opts.getByRole('button', { name: 'Save' }).click();
    await expectVisible(opts.getByText('Saved. Now connect your account.'));

    app = await ext.context.newPage();
    app.setDefaultTimeout(PAGE_WAIT_MS);
    await app.goto(server.url);
    await signUp(app, account);
    await app.getByRole('button', { name: 'Profile menu' }).click();
    await app.getByRole('link', { name: 'Browser extension' }).click();
    await expectVisible(app.getByRole('heading', { name: 'Connect the browser extension' }));
    await expectVisible(app.getByText('The extension is ready.'));
    console.log('screenshot', await screenshot(app, 'extension-connect'));
    await expectAccessible(app, 'the Connect page');
    await app.getByRole('button', { name: 'Connect', exact: true }).click();
    await expectVisible(app.getByText(`Connected as ${account.username}.`));
    console.log('screenshot', await screenshot(app, 'extension-connect-done'));

    const tokens = (await (await app.request.get(`${server.url}/api/tokens`)).json()) as { tokens: Array<{ name: string; scope: string }> };
    expect(tokens.tokens).toEqual([expect.objectContaining({ name: 'Browser extension (Chrome on Linux)', scope: 'write' })]);
    await opts.reload();
    await expectVisible(opts.getByText(`Connected as ${account.username} on ${server.url}.`));
    console.log('screenshot', await screenshot(opts, 'extension-options'));
    await opts.close();

    // Back on the Connect page (a phone-sized window): it knows whom the extension acts as.
    await app.setViewportSize(PHONE);
    await app.goto('/connect');
    await expectVisible(app.getByText(`The extension is connected as ${account.username}. Connect again to give it a new token.`));
    console.log('screenshot', await screenshot(app, 'extension-connect-again'));
    await app.setViewportSize(DESKTOP);
  });

  it('hover Save on a page whose CSP runs no script: a closed shadow root the page’s styles cannot reach; it saves to a board made inline', async () => {
    const page = await openSite('csp.html');
    expect(await page.title()).toBe('A page that runs no script'); // the page's own script was refused
    await hoverForSave(page, '#big');
    // Onto a small image (120 px): the button goes, and none shows for it.
    await page.locator('#small').hover();
    await expect.poll(async () => (await shadowElements(page, '.save')).filter((b) => b.center).length, { timeout: PAGE_WAIT_MS }).toBe(0);

    const save = await hoverForSave(page, '#big');
    const box = await page.locator('#big').boundingBox();
    expect(save.center && box && save.center.x > box.x && save.center.y > box.y && save.center.y < box.y + box.height / 2).toBe(true);
    expect(await shadowMode(page)).toBe('closed');
    // The page's `* {font-size: 31px !important}`, `button {background: lime !important}` and a rule
    // hiding our element do not reach the button; our styles do not reach the page's button.
    expect(await shadowStyle(page, '.save', ['background-color', 'font-size', 'display'])).toEqual({ 'background-color': 'rgb(200, 16, 46)', 'font-size': '14px', display: 'flex' });
    expect(await page.locator('#page-button').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(0, 255, 0)');
    console.log('screenshot', await screenshot(page, 'extension-hover-save', { overlay: true }));

    await clickShadow(page, '.save');
    await waitForShadow(page, '.panel', 'Save to Pinboard');
    await waitForShadow(page, '.panel', 'You have no boards yet');
    await clickShadow(page, '.create input');
    await page.keyboard.type('Kites');
    console.log('screenshot', await screenshot(page, 'extension-picker', { overlay: true }));
    await clickShadow(page, '.create button', 'Create');
    await waitForShadow(page, '.toast', 'Saved to Kites');

    const [pin] = await pinsFrom(`${sites.site}/csp.html`);
    expect(pin).toMatchObject({ title: 'A kite over the hill', source_url: `${sites.site}/csp.html` });
    expect(isStoredCopy(pin as Pin)).toBe(true);
    await expect.poll(async () => badgeText(await tabIdOf(`${sites.site}/csp.html`)), { timeout: PAGE_WAIT_MS }).toBe('1');
    await page.close();
  });

  it('context menu on a members-only picture of the page’s own origin: the extension sends the site’s cookie, uploads the bytes, and 2 clicks reach “Saved to Kites”; Undo deletes the pin', async () => {
    const page = await openSite('members-here.html');
    await expectVisible(page.locator('#member'));
    expect(await page.locator('#member').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400); // the page itself shows it
    const before = sites.siteImageRequests.length;

    let clicks = 0;
    await contextMenuSave(page, '#member'); // click 1: "Save to Pinboard" in the image's menu
    clicks++;
    await waitForShadow(page, '.panel .boards__label', 'Recent');
    console.log('screenshot', await screenshot(page, 'extension-picker-recent', { overlay: true }));
    await clickShadow(page, '.board', 'Kites'); // click 2: the board
    clicks++;
    await waitForShadow(page, '.toast', 'Saved to Kites');
    console.log('screenshot', await screenshot(page, 'extension-toast', { overlay: true }));
    expect(clicks).toBeLessThanOrEqual(2);

    const [pin] = await pinsFrom(`${sites.site}/members-here.html`);
    expect(pin).toMatchObject({ title: 'A members-only photo', source_url: `${sites.site}/members-here.html` });
    expect(isStoredCopy(pin as Pin)).toBe(true);
    // The extension's own fetch (not an <img>) carried the member cookie: the picture is of the tab's own origin.
    expect(sites.siteImageRequests.slice(before)).toContainEqual({ path: '/members/photo.jpg', cookie: true, dest: 'empty' });
    const board = (await (await app.request.get(`${server.url}/api/boards/`)).json()) as { boards: BoardPage[] };
    expect(board.boards.find((b) => b.name === 'Kites')?.pin_count).toBe(2);

    await clickShadow(page, '.toast button', 'Undo');
    await waitForShadow(page, '.toast', 'Removed from Pinboard');
    expect((await app.request.get(`${server.url}/api/pins/${(pin as Pin).id}`)).status()).toBe(404);
    await page.close();
  });

  it('the same picture again: the picker shows the app’s words for a picture saved already; Save anyway saves it, with the alt text typed', async () => {
    const page = await openSite('csp.html');
    await hoverForSave(page, '#big');
    await clickShadow(page, '.save');
    await waitForShadow(page, '.panel .board', 'Kites');
    await clickShadow(page, 'input[aria-label="Alt text"]');
    await page.keyboard.type('A red kite high over a green hill');
    await clickShadow(page, '.board', 'Kites');
    // The kite was saved to Kites by the hover test above: nothing is saved, the warning shows.
    await waitForShadow(page, '.saved-already', 'You saved this on');
    const [words] = await shadowElements(page, '.saved-already__words');
    expect(words?.text).toMatch(/^You saved this on [A-Z][a-z]+ [0-9]{1,2}, [0-9]{4} to Kites$/);
    await waitForShadow(page, '.saved-already a', 'Open it');
    console.log('screenshot', await screenshot(page, 'extension-saved-already', { overlay: true }));
    expect(await pinsFrom(`${sites.site}/csp.html`)).toHaveLength(1);

    await clickShadow(page, '.saved-already button', 'Save anyway');
    await waitForShadow(page, '.toast', 'Saved to Kites');
    const pins = await pinsFrom(`${sites.site}/csp.html`);
    expect(pins).toHaveLength(2);
    expect(pins.map((pin) => pin.alt_text)).toContain('A red kite high over a green hill');
    // Undone again: the page keeps its one pin (the badge test below counts them).
    await clickShadow(page, '.toast button', 'Undo');
    await waitForShadow(page, '.toast', 'Removed from Pinboard');
    expect(await pinsFrom(`${sites.site}/csp.html`)).toHaveLength(1);
    await page.close();
  });

  it('the popup lists the page’s pictures largest first and saves all twenty at once to a new board, each with the page as its source and its alt text', async () => {
    const page = await openSite('twenty.html');
    const pageUrl = `${sites.site}/twenty.html`;
    const tabId = await tabIdOf(pageUrl);
    const popup = await ext.context.newPage();
    popup.setDefaultTimeout(PAGE_WAIT_MS);
    await popup.setViewportSize({ width: 400, height: 600 });
    // The toolbar button's popup, opened as a page for the fixture's tab (the browser's toolbar
    // cannot be clicked by a test driver).
    await popup.goto(ext.extensionUrl(`popup.html?tab=${tabId}`));
    const tiles = popup.getByRole('group', { name: 'Images on this page' }).getByRole('checkbox');
    await expect.poll(() => tiles.count(), { timeout: PAGE_WAIT_MS }).toBe(20);
    const sizes = await popup.locator('.tile__size').allTextContents();
    const areas = sizes.map((s) =>
      s
        .split(' × ')
        .map(Number)
        .reduce((a, b) => a * b, 1),
    );
    expect(areas).toEqual([...areas].sort((a, b) => b - a));

    await popup.getByLabel('Select all').check();
    await expectVisible(popup.getByText('20 of 20 selected'));
    await popup.getByLabel('Board', { exact: true }).selectOption({ label: 'New board…' });
    await popup.getByLabel('New board name').fill('Twenty at once');
    console.log('screenshot', await screenshot(popup, 'extension-popup', { overlay: true }));
    await expectAccessible(popup, 'the popup');
    const started = performance.now();
    await popup.getByRole('button', { name: 'Save 20 pins' }).click(); // one action
    await expectVisible(popup.getByText('Saved 20 pins to Twenty at once'), 120_000);
    console.log(`20 pictures fetched, uploaded, pinned and put on the board in ${(performance.now() - started).toFixed(0)} ms`);
    console.log('screenshot', await screenshot(popup, 'extension-popup-saved', { overlay: true }));

    const pins = await pinsFrom(pageUrl);
    expect(pins).toHaveLength(20);
    expect(new Set(pins.map((p) => p.source_url))).toEqual(new Set([pageUrl]));
    expect(new Set(pins.map((p) => p.title))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `Picture ${i + 1}`)));
    // Each picture's alt attribute on the page is its pin's alt text.
    expect(pins.every((p) => p.alt_text === p.title)).toBe(true);
    expect(pins.every(isStoredCopy)).toBe(true);
    const boards = (await (await app.request.get(`${server.url}/api/boards/`)).json()) as { boards: BoardPage[] };
    expect(boards.boards.find((b) => b.name === 'Twenty at once')?.pin_count).toBe(20);
    await expect.poll(() => badgeText(tabId), { timeout: PAGE_WAIT_MS }).toBe('20');
    await popup.close();
    await page.close();
  });

  it('falls back to import by URL when the extension cannot get the bytes; the badge shows a page already saved', async () => {
    const page = await openSite('fallback.html');
    const before = sites.imageRequests.length;
    await contextMenuSave(page, '#guarded');
    await waitForShadow(page, '.board', 'Kites'); // the boards are in
    await clickShadow(page, '.pill', 'Save without a board');
    await waitForShadow(page, '.toast', 'Saved to your pins');
    const [pin] = await pinsFrom(`${sites.site}/fallback.html`);
    // No alt text: the page's title.
    expect(pin).toMatchObject({ title: 'Hotlinked', source_url: `${sites.site}/fallback.html` });
    // The extension's fetch was refused (403: a script's fetch, not an <img>); the pin named the
    // picture's address and the server imported it itself (a request without Fetch Metadata).
    const requests = () => sites.imageRequests.slice(before).filter((r) => r.path === '/img-only/photo.jpg');
    expect(requests()).toContainEqual(expect.objectContaining({ dest: 'empty' }));
    await expect.poll(() => requests().some((r) => r.dest === undefined), { timeout: 60_000 }).toBe(true);
    await expect.poll(async () => ((await (await app.request.get(`${server.url}/api/pins/${(pin as Pin).id}`)).json()) as Pin).image, { timeout: 60_000 }).not.toBeNull();

    // A page saved before shows it on the toolbar button when it is opened again.
    await page.goto(`${sites.site}/csp.html`);
    await expect.poll(async () => badgeText(await tabIdOf(`${sites.site}/csp.html`)), { timeout: PAGE_WAIT_MS }).toBe('1');
    await page.close();
  });

  it('a hostile page’s srcset names a cookie-protected intranet picture: Save shows and uploads the kitten the user sees, and no cookie goes to the intranet', async () => {
    // The user is signed in to the intranet (its cookie is on `localhost`, another host).
    const intranetTab = await ext.context.newPage();
    await intranetTab.goto(`${sites.intranet}/login.html`);
    expect((await ext.context.cookies(sites.intranet)).map((c) => `${c.name}=${c.value}`)).toContain(INTRANET_COOKIE);
    await intranetTab.close();
    const kittenBytes = Buffer.from(await (await fetch(`${sites.site}/photo/${KITTEN_SIZE.width}x${KITTEN_SIZE.height}.jpg`)).arrayBuffer());
    const before = sites.intranetRequests.length;

    // A page on the public web (by its name), showing a kitten whose 4000w candidate is the intranet's.
    const base = `http://${PUBLIC_HOST}:${sites.sitePort}`;
    const page = await openSite('hostile.html', base);
    const shown = await page.locator('#kitten').evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, width: img.naturalWidth }));
    expect(shown).toEqual({ src: `${base}/photo/${KITTEN_SIZE.width}x${KITTEN_SIZE.height}.jpg`, width: KITTEN_SIZE.width });

    // Hover Save: the picker's preview is the fetched bytes themselves, byte for byte the kitten.
    // (Soft checks up to the server's answer: a failure still shows what was stored and sent.)
    await hoverForSave(page, '#kitten');
    await clickShadow(page, '.save');
    await waitForShadow(page, '.board', 'Kites');
    const thumb = (await shadowElements(page, '.panel__thumb'))[0];
    const previewSrc = /src="([^"]+)"/.exec(thumb?.html ?? '')?.[1] ?? '';
    expect.soft(previewSrc).toMatch(/^blob:/);
    if (previewSrc.startsWith('blob:')) {
      const previewBytes = await page.evaluate(async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())), previewSrc);
      expect.soft(Buffer.from(previewBytes).equals(kittenBytes)).toBe(true);
    }
    await clickShadow(page, '.board', 'Kites');
    await waitForShadow(page, '.toast', 'Saved to Kites');

    // The server stored the kitten (its size), not the intranet's picture.
    const [pin] = await pinsFrom(`${base}/hostile.html`);
    expect(pin).toMatchObject({ title: 'A kitten' });
    expect(isStoredCopy(pin as Pin)).toBe(true);
    expect.soft((pin as Pin).image).toMatchObject({ width: KITTEN_SIZE.width, height: KITTEN_SIZE.height });
    // The intranet was never asked, with its cookie or without.
    expect(sites.intranetRequests.slice(before)).toEqual([]);

    // The popup lists the kitten, previewed from the very bytes it would upload (an object URL).
    const popup = await ext.context.newPage();
    popup.setDefaultTimeout(PAGE_WAIT_MS);
    await popup.goto(ext.extensionUrl(`popup.html?tab=${await tabIdOf(page.url())}`));
    const tile = popup.locator('.tile img');
    await expect
      .poll(() => tile.evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => ({ blob: i.src.startsWith('blob:'), width: i.naturalWidth }))), { timeout: PAGE_WAIT_MS })
      .toEqual([{ blob: true, width: KITTEN_SIZE.width }]);
    expect(sites.intranetRequests.slice(before)).toEqual([]);
    await popup.close();
    await page.close();
  });

  it('the Firefox build passes web-ext lint', () => {
    const result = spawnSync(process.execPath, [WEB_EXT_BIN, 'lint', '--source-dir', FIREFOX_BUILD_DIR, '--output', 'json'], { encoding: 'utf8' });
    const report = JSON.parse(result.stdout) as { summary: { errors: number; warnings: number }; errors: unknown[]; warnings: unknown[] };
    console.log('web-ext lint', JSON.stringify(report.summary));
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
  });
});
