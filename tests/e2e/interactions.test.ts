// Undo and feedback in the system Chromium: toasts with Undo (saved to a board, removed from a
// board, favorite removed) restore exactly what REST held before; "Favorited!" does not move or
// cover the title; names link to user pages; a deleted pin or board can be undone for a few
// seconds; a signed-out visitor is offered "Log in to comment". Phone and desktop, with screenshots
// and axe checks.
import { describe, expect, it } from 'vitest';
import { DEMO_PINS, PHOTO_URL } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { boardPinIds, commitDelete, createPin, DESKTOP, expectGone, expectPath, expectVisible, newAccount, PAGE_WAIT_MS, PHONE, screenshot, seriousA11yViolations, signUp } from './browser.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

async function firstPin(): Promise<{ id: number; owner: string }> {
  const res = await fetch(`${app.url}/api/pins/?limit=1`);
  const { pins } = (await res.json()) as { pins: Array<{ id: number; user: { username: string } | null }> };
  const pin = pins[0];
  if (!pin?.user) throw new Error('the seed has no pin');
  return { id: pin.id, owner: pin.user.username };
}

describe('toasts with Undo', () => {
  for (const viewport of [PHONE, { width: 1440, height: 900 }]) {
    it(`save to a new board, Undo, save again, remove, Undo: the board ends as it was (${viewport.width} px)`, async () => {
      const { page, errors, context } = await app.openTab(viewport);
      await signUp(page, newAccount('toast'));
      const pin = await firstPin();
      await page.goto(`/pins/${pin.id}`);
      const toasts = page.getByRole('status', { name: 'Notifications' });

      // Favorite: "Favorited!" shows without moving the title; removing offers Undo.
      const title = page.locator('.pin-detail__title');
      const before = await title.boundingBox();
      await page.getByRole('button', { name: 'Add To Favorites' }).click();
      await expectVisible(toasts.getByText('Favorited!', { exact: true }));
      await expectVisible(page.getByRole('button', { name: 'Remove from Favorites' }));
      expect((await title.boundingBox())?.y).toBe(before?.y);
      console.log('screenshot', await screenshot(page, `favorited-toast-${viewport.width}`));
      await page.getByRole('button', { name: 'Remove from Favorites' }).click();
      await toasts.locator('.toast', { hasText: 'Removed from favorites' }).getByRole('button', { name: 'Undo' }).click();
      await expectVisible(page.getByRole('button', { name: 'Remove from Favorites' }));
      const favorited = async () => ((await (await page.request.get('/api/favorites/')).json()) as { pins: Array<{ pin_id: number }> }).pins.map((f) => f.pin_id);
      await expect.poll(favorited, { timeout: PAGE_WAIT_MS }).toEqual([pin.id]);

      // Save to a new board: the toast offers Undo, which takes the pin off again.
      await page.getByRole('button', { name: /Add To Board/ }).click();
      await page.getByRole('button', { name: '+ Create New Board' }).click();
      await page.getByLabel('New board name').fill(`Toasts ${viewport.width}`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await expectPath(page, /^\/boards\/\d+$/);
      const boardId = Number(new URL(page.url()).pathname.split('/').pop());
      await expectVisible(toasts.getByText(`Saved to Toasts ${viewport.width}`));
      expect(await seriousA11yViolations(page)).toEqual([]);
      console.log('screenshot', await screenshot(page, `saved-toast-${viewport.width}`));
      // The screen changes first; the outbox sends the write right after (docs/outbox.md).
      await expect.poll(() => boardPinIds(page, boardId), { timeout: PAGE_WAIT_MS }).toEqual([pin.id]);
      await toasts.locator('.toast', { hasText: 'Saved to' }).getByRole('button', { name: 'Undo' }).click();
      await expectVisible(page.getByText('No pins in this board yet.'));
      await expect.poll(() => boardPinIds(page, boardId), { timeout: PAGE_WAIT_MS }).toEqual([]);

      // Remove from the board through Delete Pin, then Undo: REST holds exactly what it held.
      await page.goto(`/pins/${pin.id}`);
      await page.getByRole('button', { name: /Add To Board/ }).click();
      await page
        .getByRole('list', { name: 'Your boards' })
        .getByRole('button', { name: new RegExp(`Toasts ${viewport.width}`) })
        .click();
      await expectPath(page, `/boards/${boardId}`);
      await expectVisible(page.getByRole('button', { name: /^Delete Pin / }));
      await expect.poll(() => boardPinIds(page, boardId), { timeout: PAGE_WAIT_MS }).toEqual([pin.id]);
      const held = [pin.id];
      await page.getByRole('button', { name: /^Delete Pin / }).click();
      const dialog = page.getByRole('alertdialog');
      await expectVisible(dialog.getByText('the pin itself is not deleted', { exact: false }));
      await dialog.getByRole('button', { name: 'Yes' }).click();
      await expectVisible(toasts.getByText(`Removed from Toasts ${viewport.width}`));
      console.log('screenshot', await screenshot(page, `removed-toast-${viewport.width}`));
      await toasts.locator('.toast', { hasText: 'Removed from Toasts' }).getByRole('button', { name: 'Undo' }).click();
      await expectVisible(toasts.getByText(`Back in Toasts ${viewport.width}`));
      await expect.poll(() => boardPinIds(page, boardId), { timeout: PAGE_WAIT_MS }).toEqual(held);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('deletes with Undo', () => {
  for (const viewport of [PHONE, { width: 1440, height: 900 }]) {
    it(`a deleted pin and a deleted board come back with Undo, untouched on the server; without Undo they go (${viewport.width} px)`, async () => {
      const { page, errors, context } = await app.openTab(viewport);
      await signUp(page, newAccount('undo'));
      const toasts = page.getByRole('status', { name: 'Notifications' });
      const title = `Undo me ${viewport.width}`;
      const pinId = await createPin(page, { title, imageUrl: PHOTO_URL });
      // The image import job updates the pin once it has stored the picture: compare after that.
      const readPin = async () => (await page.request.get(`/api/pins/${pinId}`)).json() as Promise<{ image: unknown }>;
      await expect.poll(async () => (await readPin()).image !== null, { timeout: 30_000 }).toBe(true);
      const pinBefore = await readPin();

      const deletePin = async () => {
        await page.goto(`/pins/${pinId}`);
        await page.getByRole('button', { name: 'Delete This Pin' }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
        await expectPath(page, '/pins');
        await expectVisible(toasts.getByText('Pin deleted', { exact: true }));
        await expectVisible(page.getByText("You haven't created any pins yet."));
      };
      await deletePin();
      expect(await seriousA11yViolations(page)).toEqual([]);
      console.log('screenshot', await screenshot(page, `pin-deleted-toast-${viewport.width}`));
      await toasts.locator('.toast', { hasText: 'Pin deleted' }).getByRole('button', { name: 'Undo' }).click();
      await expectVisible(toasts.getByText('Pin restored'));
      await expectVisible(page.getByRole('link', { name: title, exact: true }));
      expect(await readPin()).toEqual(pinBefore);

      await deletePin();
      await commitDelete(page, 'Pin deleted');
      expect((await page.request.get(`/api/pins/${pinId}`)).status()).toBe(404);
      await page.reload();
      await expectVisible(page.getByText("You haven't created any pins yet."));

      // A board: Undo brings it back to the boards page; left alone, the toast runs out and it goes.
      const token = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
      const created = await page.request.post('/api/boards/', { data: { name: `Undo board ${viewport.width}` }, headers: { 'X-XSRF-TOKEN': token } });
      expect(created.status()).toBe(201);
      const board = (await created.json()) as { id: number; name: string };
      const boardBefore = await (await page.request.get(`/api/boards/${board.id}`)).json();
      const deleteBoard = async () => {
        await page.goto(`/boards/${board.id}`);
        await page.getByRole('button', { name: 'Delete Board' }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
        await expectPath(page, '/boards');
        await expectVisible(toasts.getByText(`Board "${board.name}" deleted`));
        await expectVisible(page.getByText('No boards found.'));
      };
      await deleteBoard();
      await toasts.locator('.toast', { hasText: 'deleted' }).getByRole('button', { name: 'Undo' }).click();
      await expectVisible(page.getByRole('link', { name: new RegExp(board.name) }));
      expect(await (await page.request.get(`/api/boards/${board.id}`)).json()).toEqual(boardBefore);
      await deleteBoard();
      await expectGone(toasts.getByText(`Board "${board.name}" deleted`));
      await expect.poll(async () => (await page.request.get(`/api/boards/${board.id}`)).status(), { timeout: 30_000 }).toBe(404);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('names and signed-out prompts', () => {
  it('the pin owner\'s name opens their pins; a signed-out visitor is offered "Log in to comment" and comes back', async () => {
    const { page, errors, context } = await app.openTab(DESKTOP);
    const pin = await firstPin();
    await page.goto(`/pins/${pin.id}`);
    await page.getByRole('link', { name: 'Log in to comment' }).click();
    await expectPath(page, '/login');
    await page.goto(`/pins/${pin.id}`);
    await page.locator('.pin-detail__owner').getByRole('link', { name: pin.owner }).click();
    await expectPath(page, `/users/${pin.owner}`);
    await expectVisible(page.getByRole('heading', { name: pin.owner, level: 1 }));
    await expectVisible(page.getByLabel(`Pins by ${pin.owner}`).getByRole('link', { name: /./ }).first());
    expect(await seriousA11yViolations(page)).toEqual([]);
    console.log('screenshot', await screenshot(page, 'user-page'));
    await page.goto('/users/nobody-at-all');
    await expectVisible(page.getByRole('heading', { name: 'User not found' }));
    await expectGone(page.getByText('Loading pins...'));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('board covers', () => {
  it('a board card is a collage of up to 4 of its newest pins', async () => {
    const { page, errors, context } = await app.openTab({ width: 1440, height: 900 });
    await signUp(page, newAccount('covers'));
    const token = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
    const headers = { 'X-XSRF-TOKEN': token };
    const { pins } = (await (await fetch(`${app.url}/api/pins/?limit=5`)).json()) as { pins: Array<{ id: number }> };
    for (const count of [0, 1, 2, 3, 4, 5]) {
      const res = await page.request.post('/api/boards/', { data: { name: `Cover ${count}` }, headers });
      expect(res.status()).toBe(201);
      const board = (await res.json()) as { id: number };
      for (const pin of pins.slice(0, count)) {
        expect((await page.request.post(`/api/boards/${board.id}/pins`, { data: { pin_id: pin.id }, headers })).status()).toBe(201);
      }
    }
    await page.goto('/boards');
    for (const count of [1, 2, 3, 4, 5]) {
      const card = page.locator('.board-card', { hasText: `Cover ${count}` });
      await expectVisible(card);
      expect(await card.locator('.board-card__tile').count()).toBe(Math.min(count, 4));
    }
    await expectVisible(page.locator('.board-card', { hasText: 'Cover 0' }).getByText('No Image'));
    console.log('screenshot', await screenshot(page, 'board-covers'));
    expect(errors).toEqual([]);
    await context.close();
  });
});
