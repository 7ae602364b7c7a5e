// Moving in, in the system Chromium (docs/import-export.md): 200 images dropped on a board page
// become 200 pins with per-file progress; the Import / Export page shows a bookmark file's kind and
// count before it starts, its progress live, its failures, and undoes it; a running import is
// stopped, keeping what it made.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import { basePictures, type ImageHost, pinbackFile, startImageHost } from '../support/import-fixtures.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectPath, expectVisible, newAccount, screenshot, signUp } from './browser.ts';

let host: ImageHost;
/** Answers its headers, then a byte every few seconds: an import from it runs until it is stopped. */
let trickle: Server;
const trickling: Socket[] = [];
const FILES = 200;
const LONG_MS = 240_000;

beforeAll(async () => {
  host = await startImageHost(await basePictures(6, 400, 300));
  trickle = createServer((req, res) => {
    trickling.push(req.socket);
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '100000' });
    const drip = setInterval(() => res.write(Buffer.from([0])), 4_000);
    req.socket.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
}, 120_000);
afterAll(async () => {
  await host?.close();
  for (const socket of trickling) socket.destroy();
  await new Promise<void>((resolve) => trickle?.close(() => resolve()));
});
const app = useBrowserServer(() => ({
  env: {
    FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    FETCH_ALLOW_PORTS: `${host.port},${(trickle.address() as AddressInfo).port}`,
    IMAGE_BUDGET_PER_USER: '5000',
    UPLOAD_RATE_LIMIT_PER_USER: '5000',
  },
}));

describe('bulk upload', () => {
  it(
    `${FILES} images dropped on a board page become ${FILES} pins in it, each with its own progress`,
    async () => {
      const { page, errors } = await app.openTab(DESKTOP);
      await signUp(page, newAccount('bulk'));
      await page.goto('/boards/create');
      await page.getByLabel('Board Name').fill('Dropped in');
      await page.getByRole('button', { name: 'Create' }).click();
      await expectPath(page, '/boards');
      await page
        .getByRole('link', { name: /Dropped in/ })
        .first()
        .click();
      await expectPath(page, /\/boards\/\d+$/);
      const boardId = Number(new URL(page.url()).pathname.split('/').pop());
      await page.getByRole('button', { name: 'Add Images' }).click();
      const zone = await expectVisible(page.getByTestId('bulk-drop'));
      // A real drop: 200 distinct PNGs drawn in the page, in one DataTransfer. Each is an 8 × 8 grid
      // of light and dark cells from its own seed: flat fills would all be one picture to the
      // server's perceptual hash, and wait as "Already saved" (docs/duplicates.md).
      const started = Date.now();
      await zone.evaluate(async (element, count) => {
        const transfer = new DataTransfer();
        for (let i = 0; i < count; i++) {
          const canvas = new OffscreenCanvas(96, 72);
          const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
          context.fillStyle = `hsl(${(i * 37) % 360} 70% 50%)`;
          context.fillRect(0, 0, 96, 72);
          let seed = (i + 1) * 2_654_435_761;
          context.fillStyle = 'rgb(20 20 20)';
          for (let cell = 0; cell < 64; cell++) {
            seed = (Math.imul(seed ^ (seed >>> 15), 2_246_822_519) + 3_266_489_917) >>> 0;
            if (seed & 0x10000) context.fillRect((cell % 8) * 12, Math.floor(cell / 8) * 9, 12, 9);
          }
          context.fillStyle = '#fff';
          context.fillText(String(i), 10, 40);
          const blob = await canvas.convertToBlob({ type: 'image/png' });
          transfer.items.add(new File([blob], `dropped_photo-${i}.png`, { type: 'image/png' }));
        }
        element.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, FILES);
      const rows = page.getByRole('list', { name: 'Files being pinned' }).getByRole('listitem');
      await expect.poll(() => rows.count()).toBe(FILES);
      // Per-file progress while it runs: some rows done, some still waiting.
      await expect.poll(async () => page.locator('.bulk__item[data-phase="done"]').count(), { timeout: LONG_MS }).toBeGreaterThan(5);
      expect(await page.locator('.bulk__item[data-phase="waiting"]').count()).toBeGreaterThan(0);
      await screenshot(page, 'bulk-upload-running', { overlay: true });
      await expectVisible(page.getByText(`${FILES} of ${FILES} pinned`), LONG_MS);
      console.log(`${FILES} files pinned in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await screenshot(page, 'bulk-upload-done', { overlay: true });
      const board = (await (await page.request.get(`/api/boards/${boardId}`)).json()) as Board;
      expect(board.pin_count).toBe(FILES);
      expect(board.pins[0]?.title).toMatch(/^dropped photo \d+$/);
      await expectAccessible(page, 'board page with a bulk upload');
      expect(errors).toEqual([]);
    },
    LONG_MS + 60_000,
  );
});

describe('the Import / Export page', () => {
  it(
    "shows the file's kind and count, the import's progress live, its failures, and undoes it",
    async () => {
      const { page, errors } = await app.openTab(DESKTOP);
      await signUp(page, newAccount('mover'));
      await page.getByRole('button', { name: 'Profile menu' }).click();
      await page.getByRole('link', { name: 'Import / Export' }).click();
      await expectPath(page, '/import-export');
      await expectVisible(page.getByText('No imports yet.'));
      const { html } = pinbackFile(host.url, 60, 4, 25);
      await page.locator('input[type="file"]').setInputFiles({ name: 'pinterest.html', mimeType: 'text/html', buffer: Buffer.from(html) });
      await expectVisible(page.getByTestId('import-preview').getByText(/Bookmark file/));
      await expect.poll(() => page.getByTestId('import-preview').textContent()).toMatch(/60 links · 58 with an image, in 4 boards/);
      await screenshot(page, 'import-picked');
      await page.getByRole('button', { name: 'Start import' }).click();
      const status = await expectVisible(page.getByTestId('import-status'));
      await expectVisible(status.getByRole('heading', { name: /Bookmark file · (Queued|Importing|Finished)/ }));
      await expectVisible(status.getByRole('heading', { name: 'Bookmark file · Finished' }), LONG_MS);
      await expectVisible(status.getByText('53 imported'));
      await expectVisible(status.getByText('7 failed'));
      await expectVisible(status.getByText(/Pin 7 #tag0/));
      await expectVisible(status.getByText('not found (404)').first());
      await screenshot(page, 'import-finished');
      await expectAccessible(page, 'the Import / Export page');
      const mine = (await (await page.request.get('/api/boards/')).json()) as { boards: Board[] };
      expect(mine.boards).toHaveLength(4);

      await status.getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('button', { name: 'Undo import' }).click();
      await expectVisible(page.getByText('Import undone: 53 pins and 4 boards removed'));
      await screenshot(page, 'import-undone', { overlay: true });
      const after = (await (await page.request.get('/api/boards/')).json()) as { boards: Board[] };
      expect(after.boards).toHaveLength(0);
      expect(errors).toEqual([]);
    },
    LONG_MS + 60_000,
  );

  it(
    'stops a running import, keeping the pins it made so far',
    async () => {
      const { page, errors } = await app.openTab(DESKTOP);
      await signUp(page, newAccount('stopper'));
      await page.goto('/import-export');
      // Three pictures that come at once, then ten from a host that never finishes sending.
      const slow = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}`;
      const links = [0, 1, 2].map((n) => `${host.url}/img/${n}.jpg`).concat(Array.from({ length: 10 }, (_, n) => `${slow}/slow-${n}.jpg`));
      const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Slow ones</H3>\n<DL><p>\n${links.map((url, i) => `<DT><A HREF="https://example.com/${i}" IMAGE="${url}">Picture ${i}</A>`).join('\n')}\n</DL><p>\n</DL><p>\n`;
      await page.locator('input[type="file"]').setInputFiles({ name: 'slow.html', mimeType: 'text/html', buffer: Buffer.from(html) });
      await page.getByRole('button', { name: 'Start import' }).click();
      const status = await expectVisible(page.getByTestId('import-status'));
      await expectVisible(status.getByText('3 imported'), LONG_MS);
      await expectVisible(status.getByRole('heading', { name: 'Bookmark file · Importing' }));
      await status.getByRole('button', { name: 'Stop' }).click();
      const dialog = await expectVisible(page.getByRole('alertdialog', { name: 'Stop this import?' }));
      await screenshot(page, 'import-stop-dialog', { overlay: true });
      await dialog.getByRole('button', { name: 'Stop and keep 3 pins' }).click();
      await expectVisible(status.getByRole('heading', { name: 'Bookmark file · Stopped' }));
      await expectVisible(status.getByText('3 imported'));
      await expectVisible(status.getByRole('button', { name: 'Undo' }));
      await screenshot(page, 'import-stopped');
      const boards = (await (await page.request.get('/api/boards/')).json()) as { boards: Board[] };
      expect(boards.boards.map((board) => [board.name, board.pin_count])).toEqual([['Slow ones', 3]]);
      expect(errors).toEqual([]);
    },
    LONG_MS + 60_000,
  );
});
