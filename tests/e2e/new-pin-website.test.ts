// New Pin's "From a website" in the system Chromium (docs/page-images.md): on a phone and a desktop,
// a page's address, "Find pictures", a picture picked, Save: the pin has that picture as its image
// and the page as its source. An address the server will not read shows the server's words. On a
// touch screen the empty preview offers to choose a photo, not to drop or paste one.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageImages } from '../../contract/pages.ts';
import { type FixtureSites, startFixtureSites } from '../support/fixture-sites.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PAGE_WAIT_MS, PHONE, expectAccessible, expectPath, expectVisible, newAccount, screenshot, signUp } from './browser.ts';

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
}, 60_000);
afterAll(async () => {
  await sites?.close();
});
// The fixture sites stand for public ones: loopback addresses are otherwise never read or imported.
const app = useBrowserServer(() => ({
  env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: `${sites.sitePort},${sites.imagesPort}` },
}));

/**
 * A picture of the form with "From a website" open. On a phone, of the screen scrolled to the
 * panel: Chromium's full-page capture drops the touch emulation while it captures, which the form
 * hears (it would show the mouse's texts).
 */
async function shoot(page: Page, name: string, touch: boolean): Promise<void> {
  if (!touch) return void (await screenshot(page, name));
  await page.locator('.from-website').evaluate((panel) => panel.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => window.scrollBy(0, -120));
  await screenshot(page, name, { overlay: true });
}

/** The server's words for a private address (docs/page-images.md). */
const REFUSED = "We can't read pictures from that address.";

describe.each([
  ['phone', PHONE, true],
  ['desktop', DESKTOP, false],
] as const)('New Pin from a website (%s)', (name, viewport, touch) => {
  it('finds the pictures of a page, and the pin is saved with the picked one and the page as its source', async () => {
    const { page, context } = await app.openTab(viewport, { touch });
    await signUp(page, newAccount(`web${name}`));
    await page.goto('/pins/new');
    // A phone can neither drop nor paste: it is offered a photo to choose.
    if (touch) {
      await expectVisible(page.getByRole('button', { name: 'Tap to choose a photo' }));
      await expect.poll(() => page.getByText(/drop an image/i).count()).toBe(0);
    } else {
      await expectVisible(page.getByText('Drop an image here'));
    }

    const from = page.getByRole('button', { name: 'From a website' });
    await expect.poll(() => from.getAttribute('aria-expanded')).toBe('false');
    // By keyboard: the toggle, the address, Enter finds the pictures (and does not save the pin).
    await from.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => from.getAttribute('aria-expanded')).toBe('true');
    const address = page.getByLabel('Website address');
    await address.fill('http://10.0.0.1/holiday.html');
    await address.press('Enter');
    await expectVisible(page.getByRole('alert').filter({ hasText: REFUSED }));
    await shoot(page, `new-pin-website-error-${name}`, touch);

    const pageUrl = `${sites.site}/twenty.html`;
    await address.fill(pageUrl);
    await page.getByRole('button', { name: 'Find pictures' }).click();
    const pictures = page.getByRole('group', { name: /Pictures on this page/ });
    await expectVisible(pictures);
    // Every picture the server found on the page (those declared under 100 px are not pictures).
    const found = (await (await page.request.get(`/api/pages/images?url=${encodeURIComponent(pageUrl)}`)).json()) as PageImages;
    expect(found.images.length).toBeGreaterThan(3);
    await expect.poll(() => pictures.getByRole('radio').count(), { timeout: PAGE_WAIT_MS }).toBe(found.images.length);
    const choice = pictures.getByRole('radio').nth(2);
    await choice.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => choice.isChecked()).toBe(true);
    const imageUrl = await choice.getAttribute('value');
    expect(imageUrl).toMatch(new RegExp(`^${sites.images}/photo/\\d+x\\d+\\.jpg$`));
    // The page's title names the pin; the image URL is the picture's; the source line names the page.
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Twenty pictures');
    await expect.poll(() => page.getByLabel('Image URL').inputValue()).toBe(imageUrl ?? '');
    await expectVisible(page.getByText('Saving from'));
    await shoot(page, `new-pin-website-pictures-${name}`, touch);
    await expectAccessible(page, `New Pin from a website (${name})`);

    const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/pins/');
    await page.getByRole('button', { name: 'Save Pin' }).click();
    expect((await posted).postDataJSON()).toMatchObject({ title: 'Twenty pictures', imageUrl, sourceUrl: pageUrl });
    await expectPath(page, '/pins');
    const saved = await app.server.database.db.selectFrom('pins').select(['image_url', 'source_url']).where('title', '=', 'Twenty pictures').orderBy('id', 'desc').executeTakeFirstOrThrow();
    // The picture's address, or the stored copy the server imported from it (docs/images.md).
    expect(saved.source_url).toBe(pageUrl);
    expect(saved.image_url === imageUrl || saved.image_url.startsWith('/media/')).toBe(true);
    await context.close();
  });
});
