// Public boards and secret links in the system Chromium (docs/board-sharing.md, "Public boards and
// links"): the owner makes a link in the Share dialog; a fresh, signed-out window opens it and sees
// the board's pins read-only (noindex); the owner revokes it and the open page, at its next read,
// says the link is gone. A board made public opens signed out as a read-only page. Screenshots of
// the dialog and the link page at phone and desktop sizes go to artifacts/screenshots.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { PHOTO_URL } from '../support/demo.ts';
import { DEMO_PINS } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectGone, expectVisible, newAccount, PHONE, screenshot, signUp, type Tab } from './browser.ts';
import { xsrf } from './ux-helpers.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });
const stamp = Date.now().toString(36);
const boardName = `Garden plans ${stamp}`;
const titles = [`Raised bed ${stamp}`, `Trellis ${stamp}`, `Pond edge ${stamp}`];
let owner: Tab;
let board: Board;
let linkUrl = '';

/** The page's user makes a board and pins through the API (the UI for those is tested elsewhere). */
async function boardWithPins(page: Page): Promise<Board> {
  const headers = { 'X-XSRF-TOKEN': await xsrf(page) };
  const made = await page.request.post('/api/boards/', { data: { name: boardName }, headers });
  expect(made.status()).toBe(201);
  const created = (await made.json()) as Board;
  for (const title of titles) {
    const pin = (await (await page.request.post('/api/pins/', { data: { title, imageUrl: PHOTO_URL, description: '' }, headers })).json()) as Pin;
    expect((await page.request.post(`/api/boards/${created.id}/pins`, { data: { pin_id: pin.id }, headers })).status()).toBe(201);
  }
  return created;
}

async function openShare(page: Page) {
  await page.goto(`/boards/${board.id}`);
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share board' });
  await expectVisible(dialog);
  return dialog;
}

beforeAll(async () => {
  owner = await app.openTab(DESKTOP);
  await signUp(owner.page, newAccount('links'));
  board = await boardWithPins(owner.page);
});

describe('a secret link to a board', () => {
  it('the owner makes a link in the Share dialog; it is shown once, with Copy', async () => {
    const dialog = await openShare(owner.page);
    await expectVisible(dialog.getByText('No links yet.'));
    await screenshot(owner.page, 'board-share-dialog', { overlay: true });
    await dialog.getByRole('button', { name: 'Make a link' }).click();
    const field = dialog.getByRole('textbox', { name: 'New link' });
    await expectVisible(field);
    linkUrl = await field.inputValue();
    expect(linkUrl).toMatch(new RegExp(`^${app.url}/b/[A-Za-z0-9_-]{43}$`));
    await expectVisible(dialog.getByText('it is shown only once'));
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expectVisible(owner.page.getByText('Link copied to clipboard!'));
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(linkUrl);
    await expectVisible(dialog.getByRole('button', { name: `Revoke link ending ${linkUrl.slice(-4)}` }));
    await screenshot(owner.page, 'board-share-dialog-link', { overlay: true });
    await owner.page.setViewportSize(PHONE);
    await screenshot(owner.page, 'board-share-dialog-link', { overlay: true });
    await owner.page.setViewportSize(DESKTOP);
    expect(owner.errors).toEqual([]);
  });

  it('a fresh signed-out window opens it and sees the pins, read-only and not indexed', async () => {
    for (const size of [DESKTOP, PHONE]) {
      const viewer = await app.openTab(size);
      const answer = await viewer.page.goto(linkUrl);
      expect(answer?.headers()['x-robots-tag']).toMatch(/noindex/);
      await expectVisible(viewer.page.getByRole('heading', { name: boardName }));
      for (const title of titles) await expectVisible(viewer.page.getByText(title, { exact: true }));
      expect(await viewer.page.locator('meta[name="robots"]').getAttribute('content')).toMatch(/noindex/);
      // Nothing to change, nothing to open: no buttons on the cards, no links to the pins.
      expect(await viewer.page.locator('.masonry button, .masonry a').count()).toBe(0);
      await expectGone(viewer.page.getByRole('button', { name: /Rename|Delete|Share|Invite/ }));
      // Their pictures show (served from /media/ to anyone).
      await expect.poll(() => viewer.page.locator('.masonry img').evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length)).toBe(3);
      await expectVisible(
        viewer.page
          .getByRole('link', { name: 'Log In' })
          .or(viewer.page.getByRole('button', { name: /profile menu|menu/i }))
          .first(),
      );
      await screenshot(viewer.page, 'board-link-page');
      expect(viewer.errors).toEqual([]);
      await viewer.context.close();
    }
  });

  it('revoked, the open link page shows it gone at its next read', async () => {
    const viewer = await app.openTab(DESKTOP);
    await viewer.page.goto(linkUrl);
    await expectVisible(viewer.page.getByRole('heading', { name: boardName }));
    const dialog = await openShare(owner.page);
    await dialog.getByRole('button', { name: `Revoke link ending ${linkUrl.slice(-4)}` }).click();
    await expectVisible(owner.page.getByText('Link revoked: it no longer opens the board.'));
    await expectVisible(dialog.getByText('No links yet.'));
    // The viewer comes back to the tab: the page reads again and the board is gone.
    await viewer.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expectVisible(viewer.page.getByRole('heading', { name: 'Link not found' }));
    await expectGone(viewer.page.getByText(titles[0] as string, { exact: true }));
    await viewer.page.reload();
    await expectVisible(viewer.page.getByRole('heading', { name: 'Link not found' }));
    await screenshot(viewer.page, 'board-link-revoked');
    await viewer.context.close();
  });
});

describe('a public board', () => {
  it('the owner makes it public in the Share dialog; signed out, it opens read-only', async () => {
    const dialog = await openShare(owner.page);
    await dialog.getByRole('radio', { name: /Public/ }).check();
    await expect.poll(async () => ((await (await owner.page.request.get(`/api/boards/${board.id}`)).json()) as Board).visibility).toBe('public');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expectVisible(owner.page.locator('.board-subtitle').getByText('Public', { exact: true }));
    await owner.page.setViewportSize(PHONE);
    await screenshot(owner.page, 'board-public-owner');
    await owner.page.setViewportSize(DESKTOP);
    const visitor = await app.openTab(PHONE, { touch: true });
    await visitor.page.goto(`/boards/${board.id}`);
    await expectVisible(visitor.page.getByRole('heading', { name: boardName }));
    await expectVisible(visitor.page.getByText(/Public board by/));
    for (const title of titles) await expectVisible(visitor.page.getByRole('link', { name: title, exact: true }));
    await expectGone(visitor.page.getByRole('button', { name: /Rename Board|Delete Board|Delete Pin|Share|Invite|Add Images/ }));
    await screenshot(visitor.page, 'board-public-signed-out');
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});
