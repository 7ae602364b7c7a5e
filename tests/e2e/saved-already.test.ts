// Pictures saved already, on the ways in beyond the New Pin form's upload (docs/duplicates.md), and
// "Search this board" (docs/product.md), in the system Chromium at a phone's and a desktop's size:
// the pin builder warns for another site's picture (checked by its address, stored nothing), bulk
// upload marks a file saved already on its own row (Open it, Save anyway, its alt text), and a
// board's page searches within the board. Screenshots of each are kept for review.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuplicatePins, ImageUploaded } from '../../contract/duplicates.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { signUpUser } from '../support/client.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectPath, expectVisible, PHONE, screenshot } from './browser.ts';

/** A picture with shapes (a perceptual hash needs structure), `seed` moving them. */
function picture(seed: number, width = 900, height = 675): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [u, v] = [x / width, y / height];
      const inCircle = (u - 0.3 - seed * 0.3) ** 2 + ((v - 0.4) * 0.75) ** 2 < 0.04;
      const inBlock = u > 0.55 - seed * 0.5 && u < 0.9 - seed * 0.5 && v > 0.2 && v < 0.8;
      raw.set(inCircle ? [200, 40, 40] : inBlock ? [30, 30, 30] : v > 0.85 ? [40, 160, 90] : [244, 239, 230], (y * width + x) * 3);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

// Another site: a page with a picture the reader has saved before (the same picture, re-encoded).
let site: Server;
let origin: string;
const sockets = new Set<Socket>();
let barn: Buffer;
let meadow: Buffer;
beforeAll(async () => {
  barn = await picture(0);
  meadow = await picture(1);
  const served = await sharp(barn).jpeg({ quality: 60 }).toBuffer();
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/barn.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(served);
    if (path === '/barns.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Red barns</title><img src="/barn.jpg" width="900" height="675" alt="A red barn">');
    res.writeHead(404).end();
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
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

const app = useBrowserServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(origin).port } }));

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expectPath(page, '/');
}

/** A reader who saved the barn picture to their board "Farms". */
async function readerWithBarn() {
  const { client, user, password } = await signUpUser(app.url, 'seen');
  const stored = await client.upload<ImageUploaded>('/api/images/', { bytes: barn, name: 'barn.jpg', type: 'image/jpeg' });
  expect(stored.status).toBe(201);
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Red barn at noon', imageUrl: stored.body.image.url })).body;
  const board = (await client.post<{ id: number }>('/api/boards/', { name: 'Farms' })).body;
  await client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
  return { client, email: user.email, password, pin, boardId: board.id };
}

const WARNING = /^You saved this on [A-Z][a-z]+ [0-9]{1,2}, [0-9]{4} to Farms$/;

describe('pictures saved already, and searching a board', () => {
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`${label}: the pin builder warns for another site's picture; bulk upload marks a file on its row; a board searches itself`, async () => {
      const reader = await readerWithBarn();
      const { page, errors, context } = await app.openTab(viewport, { touch: label === 'phone' });
      await logIn(page, reader.email, reader.password);

      // The pin builder, from another site's Save link: the picture is checked by its address.
      await page.goto(`/pin-builder?${new URLSearchParams({ url: `${origin}/barns.html`, media: `${origin}/barn.jpg`, description: 'A red barn' })}`);
      await expectVisible(page.getByText(WARNING));
      await expectVisible(page.getByRole('link', { name: 'Open it' }));
      await page.getByText(WARNING).scrollIntoViewIfNeeded();
      await screenshot(page, 'pin-builder-saved-already');
      await expectAccessible(page, `pin builder warning (${label})`);
      await page.getByRole('button', { name: 'Save Pin' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save anyway');
      await page.getByRole('button', { name: 'Save anyway' }).click();
      await expectVisible(page.getByRole('heading', { name: /^Saved/ }));
      const mine = async () => (await reader.client.get<PinList>(`/api/pins/?userId=${reader.pin.user_id}&limit=50`)).body.pins;
      const builderPin = (await mine()).find((p) => p.title === 'A red barn');
      expect(builderPin).toBeDefined();
      // Its picture is fetched and looked at after the save (a job): once seen, it is a look-alike of the first.
      const lookAlikes = async () => (await reader.client.get<DuplicatePins>(`/api/pins/${builderPin?.id}/duplicates`)).body.pins.map((p) => p.id);
      await expect.poll(lookAlikes, { timeout: 30_000 }).toContain(reader.pin.id);

      // Bulk upload: the barn again and a meadow; the barn waits on its row.
      await page.goto('/pins/new');
      await page.getByLabel('Choose images').setInputFiles([
        { name: 'barn-again.jpg', mimeType: 'image/jpeg', buffer: barn },
        { name: 'meadow.jpg', mimeType: 'image/jpeg', buffer: meadow },
      ]);
      const barnRow = page.locator('.bulk__item', { hasText: 'barn-again.jpg' });
      const meadowRow = page.locator('.bulk__item', { hasText: 'meadow.jpg' });
      await expect.poll(() => meadowRow.getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
      await expect.poll(() => barnRow.getAttribute('data-phase'), { timeout: 30_000 }).toBe('seen');
      await expectVisible(barnRow.getByText('Already saved'));
      // The newest pin of it is named: the pin builder's, on no board.
      await expectVisible(barnRow.getByText(/^You saved this on [A-Z][a-z]+ [0-9]{1,2}, [0-9]{4}$/));
      expect(await barnRow.getByRole('link', { name: 'Open it: barn-again.jpg' }).getAttribute('href')).toMatch(/^\/pins\/[0-9]+$/);
      await expectVisible(page.getByText('1 of 2 pinned · 1 saved already'));
      await page.getByLabel('Alt text for barn-again.jpg').fill('A red barn under a pale sky');
      await page.locator('.bulk').scrollIntoViewIfNeeded();
      await screenshot(page, 'bulk-saved-already');
      await expectAccessible(page, `bulk upload, saved already (${label})`);
      await barnRow.getByRole('button', { name: 'Save anyway: barn-again.jpg' }).click();
      await expect.poll(() => barnRow.getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
      await expect.poll(async () => (await mine()).find((p) => p.title === 'barn again')?.alt_text).toBe('A red barn under a pale sky');

      // The board's page: Search this board opens the search page in the board.
      await page.goto(`/boards/${reader.boardId}`);
      const box = page.getByRole('searchbox', { name: 'Search this board' });
      await expectVisible(box);
      await box.fill('barn');
      await screenshot(page, 'board-search');
      await expectAccessible(page, `board page search (${label})`);
      await box.press('Enter');
      await expectPath(page, '/search');
      expect(new URL(page.url()).searchParams.get('scope')).toBe(`board:${reader.boardId}`);
      await expectVisible(page.getByRole('link', { name: 'Red barn at noon' }).first());
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
