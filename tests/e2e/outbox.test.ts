// No action lost to a bad connection (docs/outbox.md): writes made offline show as waiting, and
// reach the server exactly once when the browser is back online — in the same tab, or in a new tab
// of the same browser after the first was closed; a queued write the server refuses is undone with
// words; an online 500 on a favorite is said, with a Retry that works.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { PHOTO_URL } from '../support/demo.ts';
import { newPin, signUpUser } from '../support/factories.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { controlledByWorker, DESKTOP, expectGone, expectVisible, newAccount, PAGE_WAIT_MS, PHONE, screenshot, signUp } from './browser.ts';

const app = useBrowserServer();
const db = () => app.server.database.db;
const WAITING = 'Waiting to send';

/** A call with the page's own session (cookie and anti-forgery header). */
async function asPage<T>(page: Page, method: 'POST' | 'DELETE', path: string, data?: unknown): Promise<T> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.fetch(path, { method, headers: { 'X-XSRF-TOKEN': decodeURIComponent(token) }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

async function likes(pinId: number): Promise<number> {
  return (await db().selectFrom('pins').select('likes_count').where('id', '=', pinId).executeTakeFirstOrThrow()).likes_count;
}
async function boardPins(boardId: number): Promise<number[]> {
  return (await db().selectFrom('board_pins').select('pin_id').where('board_id', '=', boardId).execute()).map((row) => row.pin_id);
}
async function commentTexts(pinId: number): Promise<string[]> {
  return (await db().selectFrom('comments').select('text').where('pin_id', '=', pinId).execute()).map((row) => row.text);
}
async function pinExists(pinId: number): Promise<boolean> {
  return (await db().selectFrom('pins').select('id').where('id', '=', pinId).executeTakeFirst()) !== undefined;
}

/** Someone else's pin with a picture the app serves (so it shows in every grid). */
async function othersPin(title: string): Promise<{ pin: Pin; owner: Awaited<ReturnType<typeof signUpUser>> }> {
  const owner = await signUpUser(app.url, 'outboxowner');
  return { pin: await newPin(owner.client, { title, imageUrl: PHOTO_URL }), owner };
}

function card(page: Page, pinId: number): Locator {
  return page.locator(`article[data-pin-id="${pinId}"]`);
}

const toasts = (page: Page) => page.getByRole('status', { name: 'Notifications' });

/**
 * Favorites the pin and saves it to the board from its card: on a desktop the card's heart and its
 * Save; on a phone (no heart over the image) both in the sheet the "…" opens. Each says it waits.
 */
async function favoriteAndSave(page: Page, pin: Pin, boardName: string, phone: boolean): Promise<void> {
  const target = card(page, pin.id);
  const dialog = page.getByRole('dialog', { name: 'Save to board' });
  if (phone) {
    await target.getByRole('button', { name: /^More for / }).click();
    await dialog.getByRole('button', { name: 'Add to favorites' }).click();
    await expectVisible(dialog.getByRole('button', { name: 'In your favorites' }));
    await expectVisible(
      toasts(page)
        .locator('.toast', { hasText: `Added ${pin.title} to favorites` })
        .getByText(WAITING),
    );
  } else {
    await target.getByRole('button', { name: /to favorites/ }).click();
    await expectVisible(target.getByRole('button', { name: `Remove ${pin.title} from favorites (${WAITING})` }));
    await target.hover();
    await target.getByRole('button', { name: /^Save .* to a board$/ }).click();
  }
  await dialog.getByRole('button', { name: new RegExp(boardName) }).click();
  await expectGone(dialog);
  await expectVisible(
    toasts(page)
      .locator('.toast', { hasText: `Saved to ${boardName}` })
      .getByText(WAITING),
  );
}

/** Errors of the page but those of reads made offline (a list, a lazily loaded page). */
const unexpected = (errors: string[]) => errors.filter((error) => !/could not be reached|Failed to fetch/.test(error));

describe.each([
  ['desktop', DESKTOP, false],
  ['phone', PHONE, true],
] as const)('%s', (name, viewport, phone) => {
  it('offline: a favorite, a save, a comment and a delete wait on screen; back online each reaches the server once', async () => {
    const { pin: liked } = await othersPin(`Outbox liked ${name}`);
    const { page, context, errors } = await app.openTab(viewport, { touch: phone });
    await signUp(page, newAccount(`outbox${name}`));
    const board = await asPage<Board>(page, 'POST', '/api/boards/', { name: `Outbox ${name}` });
    const mine = await asPage<Pin>(page, 'POST', '/api/pins/', { title: `Outbox mine ${name}`, imageUrl: PHOTO_URL });
    // The pages' code is loaded while online (a reload offline needs the service worker).
    await page.goto('/pins');
    await expectVisible(card(page, mine.id));
    await page.goto(`/pins/${mine.id}`);
    await expectVisible(page.getByRole('button', { name: 'Delete This Pin' }));
    await page.goto('/');
    await expectVisible(card(page, liked.id));

    await context.setOffline(true);
    // The favorite and the save: shown at once, each saying it waits.
    await favoriteAndSave(page, liked, board.name, phone);
    // The comment: in its pin's list, as waiting.
    await card(page, liked.id).getByRole('link', { name: liked.title }).first().click();
    await page.getByRole('button', { name: 'Add Comment' }).click();
    await page.getByRole('dialog').getByLabel('Comment').fill(`Sent once ${name}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    const pending = page.locator('.comment', { hasText: `Sent once ${name}` });
    await expectVisible(pending.getByText(WAITING));
    // The delete: after its Undo time, its toast says it waits.
    await page.goBack();
    await card(page, mine.id).getByRole('link', { name: mine.title }).first().click();
    await page.getByRole('button', { name: 'Delete This Pin' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectVisible(toasts(page).locator('.toast', { hasText: 'Pin deleted' }).getByText(WAITING));
    await expectVisible(page.getByRole('status').getByText('4 waiting to send'));
    console.log('screenshot', await screenshot(page, `outbox-offline-${name}`, { overlay: true }));
    // Nothing reached the server.
    expect([await likes(liked.id), await boardPins(board.id), await commentTexts(liked.id), await pinExists(mine.id)]).toEqual([0, [], [], true]);

    await context.setOffline(false);
    await expect.poll(() => pinExists(mine.id), { timeout: PAGE_WAIT_MS }).toBe(false);
    await expectGone(page.getByText(/waiting to send/));
    expect(await likes(liked.id)).toBe(1);
    expect(await boardPins(board.id)).toEqual([liked.id]);
    expect(await commentTexts(liked.id)).toEqual([`Sent once ${name}`]);
    expect(await db().selectFrom('favorites').select('id').where('pin_id', '=', liked.id).execute()).toHaveLength(1);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});

it('a tab closed offline: a new tab of the same browser sends what waited, once', async () => {
  const { pin } = await othersPin('Outbox next tab');
  const { page, context } = await app.openTab(DESKTOP);
  await signUp(page, newAccount('outboxtab'));
  await page.goto('/');
  await expectVisible(card(page, pin.id));
  await context.setOffline(true);
  await card(page, pin.id)
    .getByRole('button', { name: /to favorites/ })
    .click();
  await expectVisible(card(page, pin.id).getByRole('button', { name: new RegExp(WAITING) }));
  await page.close();
  await context.setOffline(false);
  const next = await context.newPage();
  await next.goto('/');
  await expect.poll(() => likes(pin.id), { timeout: PAGE_WAIT_MS }).toBe(1);
  await expectVisible(card(next, pin.id).getByRole('button', { name: `Remove ${pin.title} from favorites` }));
  expect(await db().selectFrom('favorites').select('id').where('pin_id', '=', pin.id).execute()).toHaveLength(1);
  await context.close();
});

it('a reload while offline (the service worker opens the app): the favorite and the comment still wait, signed in, and each is sent once back online', async () => {
  const { pin } = await othersPin('Outbox reload');
  const { page, context, errors } = await app.openTab(PHONE, { touch: true, serviceWorkers: true });
  await signUp(page, newAccount('outboxreload'));
  await controlledByWorker(page);
  await page.goto(`/pins/${pin.id}`);
  await expectVisible(page.getByRole('button', { name: 'Add Comment' }));
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Add Comment' }).click();
  await page.getByRole('dialog').getByLabel('Comment').fill('Sent after a reload');
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  await expectVisible(page.locator('.comment', { hasText: 'Sent after a reload' }).getByText(WAITING));
  await page.reload();
  // The shell and the pin come from the worker's copies; the session check's copy keeps the user signed in.
  await expectVisible(page.locator('.comment', { hasText: 'Sent after a reload' }).getByText(WAITING));
  expect(await commentTexts(pin.id)).toEqual([]);
  console.log('screenshot', await screenshot(page, 'outbox-reloaded-offline-phone', { overlay: true }));
  await context.setOffline(false);
  await expect.poll(() => commentTexts(pin.id), { timeout: PAGE_WAIT_MS }).toEqual(['Sent after a reload']);
  await expectGone(page.locator('.comment', { hasText: 'Sent after a reload' }).getByText(WAITING));
  expect(errors.filter((e) => !/Failed to fetch|ERR_INTERNET_DISCONNECTED|net::/.test(e))).toEqual([]);
  await context.close();
});

it('a queued comment on a pin deleted meanwhile: back online it leaves the list, and a toast says why', async () => {
  const { pin, owner } = await othersPin('Outbox soon gone');
  const { page, context } = await app.openTab(PHONE, { touch: true });
  await signUp(page, newAccount('outboxgone'));
  await page.goto(`/pins/${pin.id}`);
  await expectVisible(page.getByRole('button', { name: 'Add Comment' }));
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Add Comment' }).click();
  await page.getByRole('dialog').getByLabel('Comment').fill('Too late');
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  await expectVisible(page.locator('.comment', { hasText: 'Too late' }).getByText(WAITING));
  expect((await owner.client.delete(`/api/pins/${pin.id}`)).status).toBe(200);
  await context.setOffline(false);
  await expectVisible(toasts(page).getByText("Couldn't post your comment — the pin was deleted"));
  await expectGone(page.locator('.comment', { hasText: 'Too late' }));
  console.log('screenshot', await screenshot(page, 'outbox-refused-phone', { overlay: true }));
  await context.close();
});

it('an online 500 on a favorite: the heart goes back, "Couldn\'t save" with Retry, and Retry works', async () => {
  const { pin } = await othersPin('Outbox 500');
  const { page, context } = await app.openTab(DESKTOP);
  await signUp(page, newAccount('outbox500'));
  await page.goto('/');
  await expectVisible(card(page, pin.id));
  await failFavorites(context, true);
  await card(page, pin.id)
    .getByRole('button', { name: /to favorites/ })
    .click();
  const toast = toasts(page).locator('.toast', { hasText: "Couldn't save" });
  await expectVisible(toast.getByRole('button', { name: 'Retry' }));
  await expectVisible(card(page, pin.id).getByRole('button', { name: `Add ${pin.title} to favorites` }));
  console.log('screenshot', await screenshot(page, 'outbox-refused-desktop', { overlay: true }));
  expect(await likes(pin.id)).toBe(0);
  await failFavorites(context, false);
  await toast.getByRole('button', { name: 'Retry' }).click();
  await expectVisible(card(page, pin.id).getByRole('button', { name: `Remove ${pin.title} from favorites` }));
  await expect.poll(() => likes(pin.id), { timeout: PAGE_WAIT_MS }).toBe(1);
  await context.close();
});

/** POST /api/favorites/ answers 500 (or goes through again). */
async function failFavorites(context: BrowserContext, fail: boolean): Promise<void> {
  if (!fail) return context.unroute('**/api/favorites/');
  await context.route('**/api/favorites/', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Something went wrong.', errors: ['Something went wrong.'], fields: {} }) })
      : route.continue(),
  );
}
