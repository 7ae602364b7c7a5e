// Things that change under a reader, in Chromium at 1280×800 and 390×844 (touch): pins deleted
// above the viewport move nothing in view (docs/grid.md); an owner mends a pin whose image never
// arrived (docs/image-repair.md); profiles show the pin count and shared boards (docs/profiles.md).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardMember } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { demoImageUrl } from '../../db/demo-catalog.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { DEMO_PINS, seededImages } from '../support/demo.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PHONE, expectAccessible, expectGone, expectVisible, screenshot } from './browser.ts';
import { readCells, xsrf } from './ux-helpers.ts';

const BULK = 200;
let origin: Server;
let originUrl: string;
let photo: Buffer;
/** The author of the bulk pins, who deletes some of them. */
let author: { client: ApiClient; username: string; password: string; email: string };
const bulkIds = new Set<number>();

beforeAll(async () => {
  photo = await jpeg(1200, 900);
  origin = createServer((req, res) => {
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});
const app = useBrowserServer(() => ({ seed: { pins: DEMO_PINS }, env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(originUrl).port } }));

beforeAll(async () => {
  const signed = await signUpUser(app.url, 'author');
  author = { client: signed.client, username: signed.user.username, password: signed.password, email: signed.user.email };
  const images = sql.raw(
    `array[${seededImages
      .map(demoImageUrl)
      .map((url) => `'${url}'`)
      .join(',')}]`,
  );
  const { rows } = await sql<{ id: number }>`
    insert into pins (user_id, title, image_url, description, created_at, updated_at)
    select ${signed.user.id}, 'Bulk pin ' || n, (${images})[1 + n % ${seededImages.length}], '', now() - n * interval '1 minute', now() - n * interval '1 minute'
    from generate_series(1, ${BULK}) as n returning id`.execute(app.server.database.db);
  for (const row of rows) bulkIds.add(row.id);
});

async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expectVisible(page.getByRole('link', { name: 'Favorites' }));
}

/** Scrolls to `y` and waits for the grid to have followed. */
async function scrollTo(page: Page, y: number): Promise<void> {
  await page.waitForFunction(
    (top) => {
      window.scrollTo(0, top);
      return Math.abs(window.scrollY - top) < 2;
    },
    y,
    { polling: 250 },
  );
  await page.waitForTimeout(300); // the grid follows the scroll at 12 frames a second
}

describe('5. pins deleted above the viewport', () => {
  for (const [viewport, touch] of [
    [DESKTOP, false],
    [PHONE, true],
  ] as const) {
    it(`${viewport.width}: three pins deleted above the viewport move none of the cards in view; a deletion below moves none either`, async () => {
      const tab = await app.openTab(viewport, { touch });
      await tab.page.goto('/');
      await expectVisible(tab.page.locator('article[data-pin-id]'));
      await scrollTo(tab.page, 2400);
      const inView = async () =>
        (await readCells(tab.page))
          .filter((cell) => cell.bottom > 2400 && cell.top < 2400 + viewport.height)
          .map((cell) => `${cell.id}@${cell.top}:${cell.left}`)
          .sort();
      const before = await inView();
      const cells = await readCells(tab.page);
      const above = cells.filter((cell) => cell.bottom < 2400 && bulkIds.has(cell.id)).slice(-3);
      expect(above).toHaveLength(3);
      for (const cell of above) expect((await author.client.delete(`/api/pins/${cell.id}`)).status).toBe(200);
      // Live: the cards leave, their boxes stay as placeholders.
      for (const cell of above) await expectGone(tab.page.locator(`article[data-pin-id="${cell.id}"]`));
      expect(await tab.page.locator('.masonry__gap').count()).toBeGreaterThanOrEqual(3);
      expect(await inView()).toEqual(before);

      const below = cells.find((cell) => cell.top > 2400 + viewport.height && bulkIds.has(cell.id));
      expect(below).toBeDefined();
      expect((await author.client.delete(`/api/pins/${below?.id}`)).status).toBe(200);
      await expectGone(tab.page.locator(`article[data-pin-id="${below?.id}"]`));
      expect(await inView()).toEqual(before);
      console.log(`${viewport.width}: ${before.length} cards in view, unmoved after 3 deletions above and 1 below`);

      // Scrolled up to them, the placeholders are there: an empty box, not a jump.
      await scrollTo(tab.page, Math.max(0, (above[0]?.top ?? 0) - 200));
      await expectVisible(tab.page.locator('.masonry__gap'));
      console.log('screenshot', await screenshot(tab.page, 'ux-deleted-placeholder', { overlay: true }));
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    });
  }
});

/** A pin of the page's user whose image is a 404 of the "remote" site, once its import gave up. */
async function brokenPin(client: ApiClient, title: string): Promise<Pin> {
  const created = await client.post<Pin>('/api/pins/', { title, imageUrl: `${originUrl}/missing-${Date.now()}.jpg`, description: '' });
  expect(created.status).toBe(201);
  await expect.poll(async () => (await client.get<{ status: string }>(`/api/pins/${created.body.id}/image-status`)).body.status, { timeout: 30_000 }).toBe('failed');
  return created.body;
}

describe('6. the owner mends a pin whose image never arrived', () => {
  it('1280: the card says why; the edit form replaces the image with a file', async () => {
    const owner = await signUpUser(app.url, 'mender');
    const pin = await brokenPin(owner.client, 'Lost harbour');
    const tab = await app.openTab(DESKTOP);
    await signIn(tab.page, { email: owner.user.email, password: owner.password });
    await tab.page.goto('/pins');
    const card = tab.page.locator(`article[data-pin-id="${pin.id}"]`);
    await expectVisible(card.getByText(/The image could not be imported: .* answered 404/));
    console.log('screenshot', await screenshot(tab.page, 'ux-broken-card'));
    await card.getByRole('link', { name: 'Replace image' }).click();
    await expectVisible(tab.page.getByRole('heading', { name: 'Edit Pin' }));
    await tab.page.locator('.replace-image input[type="file"]').setInputFiles({ name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expectVisible(tab.page.getByRole('status', { name: 'Notifications' }).getByText('Image replaced'));
    await expectVisible(tab.page.locator('.form-card__preview .pin-image--loaded'));
    await tab.page.goto(`/pins/${pin.id}`);
    await expectVisible(tab.page.locator('.pin-detail__media .pin-image--loaded'));
    expect(await tab.page.locator('.image-notice').count()).toBe(0);
    expect((await owner.client.get<Pin>(`/api/pins/${pin.id}`)).body.image).toMatchObject({ width: 1200, height: 900 });
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('390 touch: the pin page says why over the image; a new address is imported and shows up live', async () => {
    const owner = await signUpUser(app.url, 'phonemender');
    const pin = await brokenPin(owner.client, 'Lost lighthouse');
    const tab = await app.openTab(PHONE, { touch: true });
    await signIn(tab.page, { email: owner.user.email, password: owner.password });
    await tab.page.goto(`/pins/${pin.id}`);
    const notice = tab.page.locator('.pin-detail__media .image-notice');
    await expectVisible(notice.getByText(/answered 404/));
    console.log('screenshot', await screenshot(tab.page, 'ux-broken-pin-phone', { overlay: true }));
    await notice.getByRole('button', { name: 'Replace image' }).tap();
    await notice.getByLabel('New image URL').fill(`${originUrl}/photo.jpg`);
    await notice.getByRole('button', { name: 'Use' }).tap();
    await expectVisible(tab.page.getByRole('status', { name: 'Notifications' }).getByText(/being imported/));
    await expectVisible(tab.page.locator('.pin-detail__media .pin-image--loaded'));
    await expectGone(notice);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it("a pin whose address the server refuses is its owner's until it has a picture: they are told so, a visitor finds no such pin", async () => {
    const owner = await signUpUser(app.url, 'refusedowner');
    const created = await owner.client.post<Pin>('/api/pins/', { title: 'Intranet chart', imageUrl: 'http://10.1.2.3/chart.png', description: '' });
    expect(created.status).toBe(201);
    const tab = await app.openTab(DESKTOP);
    await signIn(tab.page, { email: owner.user.email, password: owner.password });
    await tab.page.goto(`/pins/${created.body.id}`);
    const notice = tab.page.locator('.pin-detail__media .image-notice');
    await expectVisible(notice.getByText(/10\.1\.2\.3/));
    await expectVisible(notice.getByText('Only you can see this pin until it has a picture; then it is public.'));
    const visitor = await app.openTab(DESKTOP);
    await visitor.page.goto(`/pins/${created.body.id}`);
    await expectVisible(visitor.page.getByRole('heading', { name: 'Pin not found' }));
    expect(await visitor.page.getByRole('heading', { name: 'Intranet chart' }).count()).toBe(0);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
    await visitor.context.close();
  });

  it("a visitor sees no reason and no way to mend someone else's pin", async () => {
    const owner = await signUpUser(app.url, 'other');
    const pin = await brokenPin(owner.client, 'Not yours');
    const tab = await app.openTab(DESKTOP);
    await tab.page.goto(`/pins/${pin.id}`);
    await expectVisible(tab.page.getByRole('heading', { name: 'Not yours' }));
    await expectVisible(tab.page.getByText('Image unavailable'));
    expect(await tab.page.getByText(/could not be imported|Replace image/).count()).toBe(0);
    await tab.context.close();
  });
});

describe('10. profiles', () => {
  for (const [viewport, touch] of [
    [DESKTOP, false],
    [PHONE, true],
  ] as const) {
    it(`${viewport.width}: one's profile from the menu (/pins, "Your Awesome Pins!", count, boards); another's shows the boards both share`, async () => {
      const tab = await app.openTab(viewport, { touch });
      await signIn(tab.page, { email: author.email, password: author.password });
      const board = await author.client.post<{ id: number }>('/api/boards/', { name: `Shared with demo ${viewport.width}` });
      expect((await author.client.post(`/api/boards/${board.body.id}/members`, { username: 'demo' })).status).toBe(201);
      await tab.page.getByRole('button', { name: 'Profile menu' }).click();
      await tab.page.getByRole('link', { name: 'Your profile' }).click();
      await expectVisible(tab.page.getByRole('heading', { name: 'Your Awesome Pins!', level: 1 }));
      await expectVisible(tab.page.getByText(/^.* · \d{3} pins$/));
      await expectVisible(tab.page.getByRole('region', { name: 'Your boards' }).getByText(`Shared with demo ${viewport.width}`));
      await expectVisible(tab.page.locator('article[data-pin-id]'));
      await expectAccessible(tab.page, `own profile ${viewport.width}`);
      console.log('screenshot', await screenshot(tab.page, 'ux-own-profile', { overlay: true }));

      const demo = await app.openTab(viewport, { touch });
      await demo.page.goto('/login');
      await demo.page.getByRole('button', { name: 'Log in as Demo User' }).click();
      await expectVisible(demo.page.getByRole('link', { name: 'Favorites' }));
      await demo.page.goto(`/users/${author.username}`);
      await expectVisible(demo.page.getByRole('heading', { name: author.username, level: 1 }));
      await expectVisible(demo.page.getByRole('region', { name: `Boards you share with ${author.username}` }).getByText(`Shared with demo ${viewport.width}`));
      await expectAccessible(demo.page, `profile ${viewport.width}`);
      console.log('screenshot', await screenshot(demo.page, 'ux-profile', { overlay: true }));
      expect([...tab.errors, ...demo.errors]).toEqual([]);
      await demo.context.close();
      await tab.context.close();
    });
  }
});

/** Resolves once the page's live socket is connected (Socket.IO's "40" frame); set up before it opens. */
function liveConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      if (ws.url().includes('/socket.io/')) ws.on('framereceived', ({ payload }) => String(payload).startsWith('40') && resolve());
    });
  });
}

describe('9. being added to a board', () => {
  for (const [viewport, touch] of [
    [DESKTOP, false],
    [PHONE, true],
  ] as const) {
    it(`${viewport.width}: a toast says who added you and opens the board, which says so with Leave and Block at hand`, async () => {
      const tab = await app.openTab(viewport, { touch });
      const connected = liveConnected(tab.page);
      await tab.page.goto('/login');
      await tab.page.getByRole('button', { name: 'Log in as Demo User' }).click();
      await expectVisible(tab.page.locator('article[data-pin-id]'));
      await connected;
      const name = `Invited ${viewport.width}`;
      const board = await author.client.post<{ id: number }>('/api/boards/', { name });
      expect((await author.client.post(`/api/boards/${board.body.id}/members`, { username: 'demo' })).status).toBe(201);
      const { members } = (await author.client.get<{ members: BoardMember[] }>(`/api/boards/${board.body.id}/members`)).body;
      const toaster = tab.page.getByRole('status', { name: 'Notifications' });
      await expectVisible(toaster.getByText(`${author.username} added you to “${name}”`));
      console.log('screenshot', await screenshot(tab.page, 'ux-invited-toast', { overlay: true }));
      await toaster.getByRole('link', { name: 'Open' }).click();
      const notice = tab.page.getByRole('region', { name: 'Invitation' });
      await expectVisible(notice.getByText(`${author.username} added you to this board.`));
      await expectVisible(notice.getByRole('button', { name: `Leave and block ${author.username}` }));
      await expectAccessible(tab.page, `invitation ${viewport.width}`);
      console.log('screenshot', await screenshot(tab.page, 'ux-invited-board', { overlay: true }));
      if (!touch) {
        await notice.getByRole('button', { name: 'Leave board' }).click();
        await expectVisible(tab.page.getByText('You left the board.'));
      } else {
        // Leave and block in one tap: the author's next invitation is answered as for nobody.
        await notice.getByRole('button', { name: `Leave and block ${author.username}` }).tap();
        await expectVisible(tab.page.getByText(`You left the board and blocked ${author.username}.`));
        expect((await author.client.post(`/api/boards/${board.body.id}/members`, { username: 'demo' })).status).toBe(404);
        expect((await tab.page.request.delete(`/api/users/blocks/${members.find((m) => m.added_by)?.added_by?.id}`, { headers: { 'X-XSRF-TOKEN': await xsrf(tab.page) } })).status()).toBe(200);
      }
      expect((await author.client.get<{ members: unknown[] }>(`/api/boards/${board.body.id}/members`)).body.members).toHaveLength(1);
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    });
  }
});
