// Save from a grid card (home, user pages, your pins, favorites, boards). On a desktop the card's
// Save shows on hover and on keyboard focus; on a phone (touch, no hover) nothing covers the image
// and the "…" beside the title opens the same sheet. It is the pin page's board picker in a dialog
// (boards holding the pin marked "Saved", a new board made inline, Share, the favorite), saves in
// place with an Undo toast, and a signed-out visitor logs in from it and comes back.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PINS } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { boardPinIds, expectGone, expectPath, expectVisible, newAccount, PHONE, screenshot, seriousA11yViolations, signUp } from './browser.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

const opacity = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).opacity);

/** The first card of the home grid and its pin id. */
async function firstCard(page: Page): Promise<{ card: Locator; pinId: number }> {
  await page.goto('/');
  const card = page.locator('article[data-pin-id]').first();
  await expectVisible(card);
  return { card, pinId: Number(await card.getAttribute('data-pin-id')) };
}

/** Creates a board inline in the open Save dialog; returns its id (the toast says where it went). */
async function saveToNewBoard(page: Page, dialog: Locator, name: string): Promise<number> {
  await dialog.getByLabel('New board name').fill(name);
  const created = page.waitForResponse((response) => response.url().endsWith('/api/boards/') && response.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const board = (await (await created).json()) as { id: number };
  await expectGone(dialog);
  return board.id;
}

describe('Save from the card', () => {
  it('desktop 1440: hover or focus shows Save; it saves to a new board in place, marks it, and Undo takes the pin off', async () => {
    const { page, errors, context } = await app.openTab({ width: 1440, height: 900 });
    await signUp(page, newAccount('cardsave'));
    const { card, pinId } = await firstCard(page);
    const save = card.getByRole('button', { name: /^Save .* to a board$/ });
    await page.mouse.move(1, 1);
    await expect.poll(() => opacity(save)).toBe('0');
    await card.hover();
    await expect.poll(() => opacity(save)).toBe('1');
    await save.click();

    const dialog = page.getByRole('dialog', { name: 'Save to board' });
    await expectVisible(dialog.getByText('You have no boards yet.'));
    await expectVisible(dialog.getByRole('button', { name: /Share/ }));
    expect(await seriousA11yViolations(page)).toEqual([]);
    const boardId = await saveToNewBoard(page, dialog, 'Card saves 1440');
    await expectPath(page, '/'); // saved in place
    const toasts = page.getByRole('status', { name: 'Notifications' });
    await expectVisible(toasts.getByText('Saved to Card saves 1440'));
    expect(await boardPinIds(page, boardId)).toEqual([pinId]);

    // The card now reads "Saved". Open again from the keyboard: focus shows it, the board is marked "Saved".
    const saved = card.getByRole('button', { name: /^Saved: save .* to another board$/ });
    await page.mouse.move(1, 1);
    await saved.focus();
    await expect.poll(() => opacity(saved)).toBe('1');
    expect(await saved.textContent()).toBe('Saved');
    await page.keyboard.press('Enter');
    await expectVisible(dialog.getByRole('button', { name: /Card saves 1440/ }).getByText('Saved'));
    // Arrow keys move through the boards from anywhere in the dialog.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Card saves 1440');
    console.log('screenshot', await screenshot(page, 'card-save-dialog-1440'));
    await page.keyboard.press('Escape');
    await expectGone(dialog);

    await toasts.locator('.toast', { hasText: 'Saved to Card saves 1440' }).getByRole('button', { name: 'Undo' }).click();
    await expectVisible(toasts.getByText('Removed from Card saves 1440'));
    expect(await boardPinIds(page, boardId)).toEqual([]);
    await expectVisible(save); // "Save" again
    expect(errors).toEqual([]);
    await context.close();
  });

  it('phone 390 (touch, no hover): "…" beside the title opens the sheet; a tap saves to an existing board', async () => {
    const { page, errors, context } = await app.openTab(PHONE, { touch: true });
    await signUp(page, newAccount('cardtap'));
    const { card, pinId } = await firstCard(page);
    expect(await card.getByRole('button', { name: /^Save .* to a board$/ }).isVisible()).toBe(false);
    await card.getByRole('button', { name: /^More for / }).tap();
    const dialog = page.getByRole('dialog', { name: 'Save to board' });
    const boardId = await saveToNewBoard(page, dialog, 'Phone saves');
    expect(await boardPinIds(page, boardId)).toEqual([pinId]);

    // A second pin to the board that now exists, chosen from the list. The toast goes first: a
    // card scrolled to the bottom edge could sit under it, and a tap there would hit the toast.
    await page.getByRole('status', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss' }).tap();
    const secondId = Number(await page.locator('article[data-pin-id]').nth(1).getAttribute('data-pin-id'));
    const second = page.locator(`article[data-pin-id="${secondId}"]`);
    await second.getByRole('button', { name: /^More for / }).tap();
    await expectVisible(dialog); // a tap that missed would fail here, not at the board below
    await dialog.getByRole('button', { name: /Phone saves/ }).tap();
    await expectGone(dialog);
    await expectVisible(page.getByRole('status', { name: 'Notifications' }).getByText('Saved to Phone saves'));
    expect((await boardPinIds(page, boardId)).sort()).toEqual([pinId, secondId].sort());

    // The board's own grid and the favorites grid have Save on their cards too.
    await page.goto(`/boards/${boardId}`);
    await expectVisible(page.locator(`article[data-pin-id="${secondId}"]`).getByRole('button', { name: /^More for / }));
    const token = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
    expect((await page.request.post('/api/favorites/', { data: { pin_id: pinId }, headers: { 'X-XSRF-TOKEN': token } })).status()).toBe(201);
    await page.goto('/favorites');
    await expectVisible(page.locator(`article[data-pin-id="${pinId}"]`).getByRole('button', { name: /^More for / }));
    // Last: a full-page capture resizes the page for a moment, and the grid lays itself out again.
    await page.goto('/');
    await expectVisible(page.locator('article[data-pin-id]'));
    console.log('screenshot', await screenshot(page, 'card-save-phone'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signed out: Save offers "Log in", which comes back to the same page with the sheet open', async () => {
    const { page, errors, context } = await app.openTab({ width: 1440, height: 900 });
    const { pins } = (await (await fetch(`${app.url}/api/pins/?limit=1`)).json()) as { pins: Array<{ user: { username: string } | null }> };
    const owner = pins[0]?.user?.username;
    expect(owner).toBeTruthy();
    await page.goto(`/users/${owner}`);
    const card = page.locator('article[data-pin-id]').first();
    await expectVisible(card);
    await card.hover();
    await card.getByRole('button', { name: /^Save .* to a board$/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Save this pin' });
    await expectVisible(sheet.getByText('Log in to save pins to your boards.'));
    await sheet.getByRole('button', { name: 'Log in' }).click();
    await expectPath(page, '/login');
    await page.getByRole('button', { name: 'Log in as Demo User' }).click();
    await expectPath(page, `/users/${owner}`);
    await expectVisible(page.getByRole('dialog', { name: 'Save to board' }));
    expect(errors).toEqual([]);
    await context.close();
  });
});
