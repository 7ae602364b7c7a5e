// Curating together in the system Chromium (docs/board-sharing.md): the owner shares a board with
// another user through the members dialog's type-ahead; the two of them, in two windows, see each
// other's adds and removals live; removing the collaborator closes their open board page with a
// notice. Screenshots go where the other e2e screenshots go (artifacts/screenshots).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import { DEMO_PINS, PHOTO_URL } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { createPin, expectAccessible, expectGone, expectPath, expectVisible, newAccount, PAGE_WAIT_MS, screenshot, signUp, type Tab } from './browser.ts';

/** Counts the page's Socket.IO connects (a "40" frame), so a scenario starts once a window is live. */
function followConnects(page: Page): { count: number } {
  const state = { count: 0 };
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    ws.on('framereceived', ({ payload }) => {
      if (String(payload).startsWith('40')) state.count += 1;
    });
  });
  return state;
}

let owner: Tab;
let collaborator: Tab;
let collaboratorPinPage: Page;
let ownerLive: { count: number };
let collaboratorLive: { count: number };
const accountA = newAccount('share_a');
const accountB = newAccount('share_b');
const stamp = Date.now().toString(36);
const boardName = `Shore finds ${stamp}`;
const firstTitle = `Shared shell ${stamp}`;
const secondTitle = `Shared stone ${stamp}`;
let firstPin = 0;
let secondPin = 0;
let boardId = 0;

const expectLive = (live: { count: number }) => expect.poll(() => live.count, { timeout: PAGE_WAIT_MS }).toBeGreaterThan(0);

const app = useBrowserServer({ seed: { pins: DEMO_PINS }, redis: true });

beforeAll(async () => {
  owner = await app.openTab();
  collaborator = await app.openTab();
  ownerLive = followConnects(owner.page);
  collaboratorLive = followConnects(collaborator.page);
  await signUp(owner.page, accountA);
  await signUp(collaborator.page, accountB);
  firstPin = await createPin(owner.page, { title: firstTitle, imageUrl: PHOTO_URL });
  secondPin = await createPin(owner.page, { title: secondTitle, imageUrl: PHOTO_URL });
});

describe('shared boards in two windows', () => {
  it('the owner invites B by username; the board appears in B’s open boards list, marked Shared', async () => {
    await owner.page.goto('/boards/create');
    await owner.page.getByLabel('Board Name').fill(boardName);
    await owner.page.getByRole('button', { name: 'Create' }).click();
    await expectPath(owner.page, '/boards');
    await owner.page.getByRole('link', { name: new RegExp(boardName) }).click();
    await expectVisible(owner.page.getByRole('heading', { name: boardName }));
    boardId = Number(new URL(owner.page.url()).pathname.split('/').pop());

    await collaborator.page.goto('/boards');
    await expectVisible(collaborator.page.getByText('No boards found.'));
    await expectLive(collaboratorLive);

    await owner.page.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Members' });
    const input = dialog.getByRole('combobox', { name: 'Add by username' });
    await expectVisible(input);
    await input.fill(accountB.username.slice(0, 12));
    const option = dialog.getByRole('option', { name: accountB.username });
    await expectVisible(option);
    await input.press('ArrowDown');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await screenshot(owner.page, 'shared-board-invite', { overlay: true });
    await input.press('Enter');
    await expectVisible(dialog.getByRole('list', { name: `Members of ${boardName}` }).getByText(accountB.username));
    await expectAccessible(owner.page, 'members dialog');
    await screenshot(owner.page, 'shared-board-members', { overlay: true });
    await owner.page.keyboard.press('Escape');
    await expectGone(dialog);

    const card = collaborator.page.getByRole('listitem').filter({ hasText: boardName });
    await expectVisible(card);
    await expectVisible(card.getByText('Shared', { exact: true }));
    await screenshot(collaborator.page, 'shared-board-list-collaborator');
  });

  it('B saves a pin to the shared board from another window; both open board pages show it; the owner removes it and it goes from B’s', async () => {
    await owner.page.goto(`/boards/${boardId}`);
    await collaborator.page.goto(`/boards/${boardId}`);
    await expectVisible(collaborator.page.getByRole('heading', { name: boardName }));
    await expectVisible(collaborator.page.getByText('No pins in this board yet.'));
    // A collaborator gets no rename or delete.
    expect(await collaborator.page.getByRole('button', { name: 'Rename Board' }).count()).toBe(0);
    expect(await collaborator.page.getByRole('button', { name: 'Delete Board' }).count()).toBe(0);
    await expect.poll(() => ownerLive.count, { timeout: PAGE_WAIT_MS }).toBeGreaterThan(0);

    // B's second window: the pin page's Add To Board lists the shared board.
    collaboratorPinPage = await collaborator.context.newPage();
    collaboratorPinPage.setDefaultTimeout(PAGE_WAIT_MS);
    for (const pinId of [firstPin, secondPin]) {
      await collaboratorPinPage.goto(`/pins/${pinId}`);
      await collaboratorPinPage.getByRole('button', { name: 'Add To Board' }).click();
      await collaboratorPinPage.getByRole('list', { name: 'Your boards' }).getByRole('button', { name: boardName }).click();
      await expectVisible(owner.page.locator(`article[data-pin-id="${pinId}"]`));
      await expectVisible(collaborator.page.locator(`article[data-pin-id="${pinId}"]`));
    }
    await expectVisible(owner.page.getByText('2 pins', { exact: true }));
    await expectVisible(collaborator.page.getByText('2 pins', { exact: true }));
    await screenshot(collaborator.page, 'shared-board-collaborator-view');

    // The owner removes one; it leaves the collaborator's open page.
    await owner.page.getByRole('button', { name: `Delete Pin ${firstTitle} from this board` }).click();
    await owner.page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectGone(collaborator.page.locator(`article[data-pin-id="${firstPin}"]`));
    await expectVisible(collaborator.page.getByText('1 pin', { exact: true }));

    // And the collaborator removes the other; it leaves the owner's.
    await collaborator.page.getByRole('button', { name: `Delete Pin ${secondTitle} from this board` }).click();
    await collaborator.page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectGone(owner.page.locator(`article[data-pin-id="${secondPin}"]`));
    await expectVisible(owner.page.getByText('No pins in this board yet.'));
    await screenshot(owner.page, 'shared-board-owner-view');
  });

  it('the owner removes B: B’s open board page closes with a notice', async () => {
    await owner.page.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Members' });
    await dialog.getByRole('button', { name: `Remove ${accountB.username}` }).click();
    await expectGone(dialog.getByText(accountB.username));

    await expectPath(collaborator.page, '/boards');
    await expectVisible(collaborator.page.getByText(MSG.boardRemovedNotice));
    await expectGone(collaborator.page.getByRole('listitem').filter({ hasText: boardName }));
    await expectAccessible(collaborator.page, 'removed notice');
    await screenshot(collaborator.page, 'shared-board-removed-notice');
    expect([...owner.errors, ...collaborator.errors]).toEqual([]);
  });
});
