// Capture in the system Chromium (docs/tokens-and-capture.md): the Tokens screen (create with the
// secret once and Copy, revoke), the pin builder link (filled form, log in and back, unsafe values
// dropped), "Saved from {host}" on the pin, and the bookmarklet on a page whose CSP is
// `script-src 'none'`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectPath, expectVisible, newAccount, PAGE_WAIT_MS, PHONE, screenshot, signUp } from './browser.ts';

let fixtures: Server;
let fixtureOrigin: string;

/** A 1×1 (tracking pixel), a small and a large picture, as SVG (any size we like, no files). */
const svg = (width: number, height: number, fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${fill}"/></svg>`;

/**
 * Pages "out on the web", on another origin: one with the strictest script policy there is, and
 * images of three sizes. `/inject.js` is what a script-loading bookmarklet (Pinry's kind) would load.
 */
function startFixtures(): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const images: Record<string, string> = { '/pixel.svg': svg(1, 1, '#000'), '/small.svg': svg(120, 80, '#4a7'), '/large.svg': svg(640, 420, '#c8102e') };
    if (images[path]) {
      res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(images[path]);
    } else if (path === '/inject.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.open("/injected-script-ran")');
    } else if (path === '/article.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'; object-src 'none'" });
      res.end(`<!doctype html><title>Red Barn Weekly</title><h1>A barn</h1>
        <img src="/pixel.svg" alt="" width="1" height="1"><img src="/small.svg" alt="A small thing">
        <img src="/large.svg" alt="The big red barn at dawn"><script>document.title = 'scripts run here'</script>`);
    } else res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  fixtures = await startFixtures();
  const fixturePort = (fixtures.address() as AddressInfo).port;
  fixtureOrigin = `http://127.0.0.1:${fixturePort}`;
});
afterAll(async () => {
  await new Promise((resolve) => fixtures?.close(resolve));
});
// The fixture site stands for a public one: a loopback address is otherwise never shown on a pin.
const app = useBrowserServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(fixtureOrigin).port } }));

async function apiAs(secret: string, path: string): Promise<number> {
  return (await fetch(app.url + path, { headers: { authorization: `Bearer ${secret}` } })).status;
}

/** A browser request of the page's own session. */
async function pinOf(page: Page, id: number): Promise<Pin> {
  const res = await page.request.get(`/api/pins/${id}`);
  return (await res.json()) as Pin;
}

describe('the Tokens screen', () => {
  it('creates a token whose secret is shown once with Copy, lists it, and revokes it', async () => {
    const { page, errors, context } = await app.openTab();
    await signUp(page, newAccount('tokens'));
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('link', { name: 'Tokens' }).click();
    await expectPath(page, '/tokens');
    await expectVisible(page.getByText('No tokens yet.', { exact: false }));
    await expectAccessible(page, 'tokens (empty)');

    await page.getByLabel('Name').fill('Laptop script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretField = page.getByRole('textbox', { name: 'New token' });
    await expectVisible(secretField);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^pb_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expectVisible(page.getByText('Token copied to the clipboard.'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectVisible(page.getByRole('listitem').filter({ hasText: 'Laptop script' }).getByText('Never used'));
    await screenshot(page, 'tokens-created');
    await expectAccessible(page, 'tokens (secret shown)');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'tokens-created');
    await page.setViewportSize(DESKTOP);

    // The secret works, and is never shown again: not after "I have copied it", not after a reload.
    expect(await apiAs(secret, '/api/auth/')).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await expectVisible(page.getByRole('listitem').filter({ hasText: 'Laptop script' }));
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke Laptop script' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke token' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expectVisible(page.getByText('No tokens yet.', { exact: false }));
    expect(await apiAs(secret, '/api/auth/')).toBe(401);
    await screenshot(page, 'tokens-empty');
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Opens a pin builder link, signed out: Log In, then back to the same link. */
async function signInThroughBuilder(context: BrowserContext, link: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  await page.goto(link);
  await expectPath(page, '/login');
  return page;
}

describe('the pin builder link', () => {
  const page_ = 'https://www.example.com/barns/red?ref=feed#photo-3';
  const media = 'https://images.example.com/barn.jpg';
  const description = 'The big red barn at dawn\nShot on film, 1998. #barns';
  const link = `/pin-builder?${new URLSearchParams({ url: page_, media, description })}`;

  it('a signed-out visitor logs in and comes back to the form, filled in; the pin keeps its source', async () => {
    const tab = await app.openTab();
    const account = newAccount('builder');
    await signUp(tab.page, account);
    await tab.page.getByRole('button', { name: 'Profile menu' }).click();
    await tab.page.getByRole('button', { name: 'Log Out' }).click();
    await expectVisible(tab.page.getByRole('link', { name: 'Log In' }).or(tab.page.getByRole('button', { name: 'Profile menu' })));

    const page = await signInThroughBuilder(tab.context, link);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expectPath(page, '/pin-builder');
    expect(new URL(page.url()).search).toBe(new URL(link, app.url).search);
    await expectVisible(page.getByRole('heading', { name: 'Create a New Pin' }));
    expect(await page.getByLabel('Title').inputValue()).toBe('The big red barn at dawn');
    expect(await page.getByLabel('Image URL').inputValue()).toBe(media);
    expect(await page.getByLabel('Description (optional)').inputValue()).toBe(description);
    const source = page.locator('.source-line');
    await expect.poll(() => source.textContent()).toBe('Saving from example.com');
    expect(await source.getByRole('link').getAttribute('href')).toBe('https://www.example.com/barns/red?ref=feed');
    await screenshot(page, 'pin-builder');

    await page.getByRole('button', { name: 'Save Pin' }).click();
    // The remote image does not load here: the page asks first.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save anyway' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Saved' }));
    const mine = (await (await page.request.get('/api/pins/?limit=1')).json()) as { pins: Pin[] };
    const pin = mine.pins[0] as Pin;
    expect(pin).toMatchObject({ title: 'The big red barn at dawn', image_url: media, source_url: 'https://www.example.com/barns/red?ref=feed' });

    await page.goto(`/pins/${pin.id}`);
    const saved = page.locator('.pin-detail__source');
    await expectVisible(saved);
    expect(await saved.textContent()).toBe('Saved from example.com');
    const anchor = saved.getByRole('link', { name: 'example.com' });
    expect(await anchor.getAttribute('href')).toBe('https://www.example.com/barns/red?ref=feed');
    expect(await anchor.getAttribute('rel')).toBe('nofollow noopener ugc');
    await screenshot(page, 'pin-saved-from');
    await expectAccessible(page, 'pin with its source');
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('unsafe values are dropped, never run: javascript:, data: and relative addresses', async () => {
    const tab = await app.openTab();
    await signUp(tab.page, newAccount('unsafe'));
    const bad = new URLSearchParams({
      url: 'javascript:alert(document.cookie)',
      media: 'javascript:alert(1)//.png',
      description: 'Harmless <img src=x onerror=alert(2)> text',
    });
    await tab.page.goto(`/pin-builder?${bad}`);
    await expectVisible(tab.page.getByRole('heading', { name: 'Create a New Pin' }));
    expect(await tab.page.getByLabel('Image URL').inputValue()).toBe('');
    expect(await tab.page.getByLabel('Title').inputValue()).toBe('Harmless <img src=x onerror=alert(2)> text');
    expect(await tab.page.locator('.source-line').count()).toBe(0);
    for (const media of ['data:image/svg+xml,<svg onload=alert(3)>', '/api/auth/logout', 'vbscript:x']) {
      await tab.page.goto(`/pin-builder?${new URLSearchParams({ media, url: 'data:text/html,hi' })}`);
      await expectVisible(tab.page.getByRole('heading', { name: 'Create a New Pin' }));
      expect(await tab.page.getByLabel('Image URL').inputValue(), media).toBe('');
      expect(await tab.page.locator('.source-line').count()).toBe(0);
    }
    // Still signed in: nothing ran, nothing signed anyone out.
    expect(((await (await tab.page.request.get('/api/auth/')).json()) as { user: unknown }).user).not.toBeNull();
    expect(tab.dialogs).toEqual([]);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe('the bookmarklet', () => {
  it("opens the builder for the page's largest image on a page with script-src 'none', where a script-loading one is blocked", async () => {
    const tab = await app.openTab();
    await signUp(tab.page, newAccount('bookmarklet'));
    await tab.page.goto('/tokens');
    const bookmarklet = tab.page.getByRole('link', { name: 'Save to Pinboard' });
    await expectVisible(bookmarklet);
    const href = (await bookmarklet.getAttribute('href')) ?? '';
    expect(href).toMatch(/^javascript:/);
    // It only opens a window: no element, script or request is made in the page.
    expect(href).not.toMatch(/createElement|appendChild|\.src\s*=|fetch\(|XMLHttpRequest|import\(/);
    await screenshot(tab.page, 'tokens-bookmarklet');

    const article = await tab.context.newPage();
    await article.goto(`${fixtureOrigin}/article.html`);
    await expect.poll(() => article.evaluate(() => Array.from(document.images).every((image) => image.complete))).toBe(true);
    expect(await article.title()).toBe('Red Barn Weekly'); // the page's own inline script was refused

    // Control: a bookmarklet that loads a script (Pinry's way) is stopped by the page's policy.
    const blocked = `javascript:(()=>{const s=document.createElement('script');s.src='${fixtureOrigin}/inject.js';document.body.appendChild(s)})()`;
    const noPopup = tab.context.waitForEvent('page', { timeout: 3000 }).then(
      () => 'opened',
      () => 'none',
    );
    await clickBookmark(article, blocked);
    expect(await noPopup).toBe('none');

    // Ours: a click on the bookmark opens the builder, filled in, in a new window.
    const popupOpened = tab.context.waitForEvent('page', { timeout: PAGE_WAIT_MS });
    await clickBookmark(article, href);
    const builder = await popupOpened;
    builder.setDefaultTimeout(PAGE_WAIT_MS);
    await expectPath(builder, '/pin-builder');
    const params = new URL(builder.url()).searchParams;
    expect(Object.fromEntries(params)).toEqual({
      url: `${fixtureOrigin}/article.html`,
      media: `${fixtureOrigin}/large.svg`,
      description: 'The big red barn at dawn',
      popup: '1',
    });
    await expectVisible(builder.getByRole('heading', { name: 'Create a New Pin' }));
    expect(await builder.getByLabel('Image URL').inputValue()).toBe(`${fixtureOrigin}/large.svg`);
    expect(await builder.getByLabel('Title').inputValue()).toBe('The big red barn at dawn');
    await expectVisible(builder.getByRole('img', { name: 'Preview of the image' }));
    const closed = builder.waitForEvent('close', { timeout: PAGE_WAIT_MS });
    await builder.getByRole('button', { name: 'Save Pin' }).click();
    await expectVisible(builder.getByRole('heading', { name: 'Saved' }));
    await closed; // the end screen closes the bookmarklet's window by itself
    const latest = ((await (await tab.page.request.get('/api/pins/?limit=1')).json()) as { pins: Pin[] }).pins[0] as Pin;
    expect(latest).toMatchObject({ image_url: `${fixtureOrigin}/large.svg`, source_url: `${fixtureOrigin}/article.html` });
    expect((await pinOf(tab.page, latest.id)).title).toBe('The big red barn at dawn');
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

/**
 * What clicking a bookmark does: the browser runs its `javascript:` address in the current page as
 * a navigation the user started (so the page's CSP does not stop the bookmarklet itself, only what
 * it would load). Playwright reports such a navigation as aborted; that is expected.
 */
async function clickBookmark(page: Page, href: string): Promise<void> {
  await page.goto(href).catch((error: unknown) => {
    if (!String(error).includes('ERR_ABORTED')) throw error;
  });
}
