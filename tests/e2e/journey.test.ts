// A new user's whole signed-in journey through the screens docs/product.md §2 lists, in the system Chromium
// against the real server and database: signup (mismatch first) → pin → favorites → boards →
// comments → share → logout.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PINS, PHOTO_URL } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { commitDelete, createPin, expectGone, expectPath, expectVisible, newAccount, type Tab } from './browser.ts';

let tab: Tab & { confirmAnswer: { value: boolean } };
const account = newAccount('journey');
const pinTitle = `Harbour lights ${Date.now()}`;
let pinId = 0;

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

beforeAll(async () => {
  tab = await app.openTab();
});

describe('signed-in journey', () => {
  it('signup refuses a mismatched confirm password with the exact text and sends nothing', async () => {
    const { page } = tab;
    await page.goto('/signup');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(`${account.password}-typo`);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectVisible(page.getByText('Confirm Password field must be the same as the Password field', { exact: true }));
    expect(tab.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(page.url()).toMatch(/\/signup$/);
  });

  it('signs up (the same email and username still free, so nothing was created before)', async () => {
    const { page } = tab;
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectPath(page, '/');
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await expectVisible(page.getByText(`Hello, ${account.username}`));
    await expectVisible(page.getByText(account.email));
    await page.keyboard.press('Escape');
    await expectGone(page.getByText(`Hello, ${account.username}`));
  });

  it('new pin: blank fields list both errors together; then the pin is created and listed', async () => {
    const { page } = tab;
    await page.goto('/pins/new');
    await page.getByRole('button', { name: 'Save Pin' }).click();
    const errors = page.getByRole('alert');
    await expectVisible(errors);
    expect(await errors.locator('li').allTextContents()).toEqual(['Title is required.', 'Image URL is required.']);

    pinId = await createPin(page, { title: pinTitle, imageUrl: PHOTO_URL, description: 'Boats <b>coming</b> home.' });
    expect(pinId).toBeGreaterThan(0);
    await expectVisible(page.getByRole('heading', { name: 'Your Awesome Pins!' }));

    await page.goto('/');
    const card = page.locator(`article[data-pin-id="${pinId}"]`);
    await expectVisible(card);
    await expectVisible(card.getByRole('link', { name: `Edit ${pinTitle}` }));
  });

  it('pin detail shows the owner line; favoriting shows "Favorited!", counts up and flips the button', async () => {
    const { page } = tab;
    await page.goto(`/pins/${pinId}`);
    await expectVisible(page.getByRole('heading', { name: pinTitle }));
    await expectVisible(page.getByText(`Pin owner: ${account.username}`, { exact: true }));
    await expectVisible(page.getByText('Boats <b>coming</b> home.', { exact: true })); // text, not HTML
    await expectVisible(page.getByText('0 favorites', { exact: true }));
    await page.getByRole('button', { name: 'Add To Favorites' }).click();
    await expectVisible(page.getByText('Favorited!', { exact: true }));
    await expectVisible(page.getByText('1 favorite', { exact: true }));
    await expectVisible(page.getByRole('button', { name: 'Remove from Favorites' }));
    await expectGone(page.getByText('Favorited!', { exact: true }), 4000);
  });

  it('the favorites page lists it; its heart removes it', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: 'Favorites' }).click();
    await expectPath(page, '/favorites');
    const card = page.locator(`article[data-pin-id="${pinId}"]`);
    await expectVisible(card);
    const heart = card.getByTitle('Remove from favorites');
    expect(await heart.textContent()).toBe('1');
    await heart.click();
    await expectGone(card);
    await expectVisible(page.getByText('No favorited pin yet!'));
  });

  it('Add To Board → "+ Create New Board" creates the board, adds the pin and lands on it', async () => {
    const { page } = tab;
    await page.goto(`/pins/${pinId}`);
    await page.getByRole('button', { name: 'Add To Board' }).click();
    await expectVisible(page.getByText('You have no boards yet.'));
    await page.getByRole('button', { name: '+ Create New Board' }).click();
    await page.getByLabel('New board name').fill('Seaside');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expectPath(page, /^\/boards\/\d+$/);
    await expectVisible(page.getByRole('heading', { name: 'Seaside' }));
    await expectVisible(page.getByRole('link', { name: pinTitle, exact: true }));
  });

  it('the boards page shows the board with "01"', async () => {
    const { page } = tab;
    await page.goto('/boards');
    const card = page.getByRole('listitem').filter({ hasText: 'Seaside' });
    await expectVisible(card);
    expect(await card.locator('.board-card__count').textContent()).toBe('01');
    await card.getByRole('link').click();
    await expectPath(page, /^\/boards\/\d+$/);
  });

  it('rename: Escape cancels, OK saves', async () => {
    const { page } = tab;
    await page.getByRole('button', { name: 'Rename Board' }).click();
    const input = page.getByLabel('Board name');
    await input.fill('Not this');
    await input.press('Escape');
    await expectVisible(page.getByRole('heading', { name: 'Seaside' }));
    await page.getByRole('button', { name: 'Rename Board' }).click();
    await page.getByLabel('Board name').fill('  Seaside evenings  ');
    await page.getByRole('button', { name: 'OK' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Seaside evenings' }));
    await page.reload();
    await expectVisible(page.getByRole('heading', { name: 'Seaside evenings' }));
  });

  it('manage pins removes the pin after the browser confirm', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: 'Manage Pins' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Manage Seaside evenings Pins' }));
    tab.confirmAnswer.value = false;
    await page.getByRole('button', { name: `Delete ${pinTitle}` }).click();
    await page.waitForTimeout(300);
    await expectVisible(page.getByRole('link', { name: pinTitle, exact: true }));
    tab.confirmAnswer.value = true;
    await page.getByRole('button', { name: `Delete ${pinTitle}` }).click();
    await expectVisible(page.getByText('No pins found in this board.'));
    expect(tab.dialogs.filter((d) => d === 'confirm: Are you sure you want to remove this pin?')).toHaveLength(2);
  });

  it('deletes the board through its modal', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: '← Back to Seaside evenings' }).click();
    await expectVisible(page.getByText('No pins in this board yet.'));
    await page.getByRole('button', { name: 'Delete Board' }).click();
    const dialog = page.getByRole('alertdialog');
    await expectVisible(dialog);
    await dialog.getByRole('button', { name: 'No' }).click();
    await expectGone(dialog);
    await page.getByRole('button', { name: 'Delete Board' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectPath(page, '/boards');
    await expectVisible(page.getByText('No boards found.'));
    await commitDelete(page, 'deleted');
  });

  it('comments: add, edit yours, edit, delete', async () => {
    const { page } = tab;
    await page.goto(`/pins/${pinId}`);
    const comments = page.getByRole('region', { name: /Comments/ });
    await expectVisible(comments.getByText('No comments yet.'));
    await comments.getByRole('button', { name: 'Add Comment' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Comment' });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectVisible(dialog.getByText('Text is required', { exact: true }));
    await dialog.getByLabel('Comment').fill('Lovely evening light.');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectGone(dialog);
    await expectVisible(comments.getByText('Lovely evening light.'));
    const month = new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
    await expectVisible(comments.getByText(month));

    // One comment per pin, shown up front: "Add Comment" gives way to editing yours (#12). (The
    // server's refusal, "You already submitted a comment on this pin.", is a client test's now.)
    await expectGone(comments.getByRole('button', { name: 'Add Comment' }));
    await comments.getByRole('button', { name: 'Edit Your Comment' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Comment' });
    await expectVisible(dialog.getByLabel('Comment'));
    // A press outside the panel closes it.
    await page.mouse.click(5, 400);
    await expectGone(dialog);

    await comments.getByRole('button', { name: 'Edit', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Comment' });
    await dialog.getByLabel('Comment').fill('Lovely evening light, edited.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectGone(dialog);
    await expectVisible(comments.getByText('Lovely evening light, edited.'));

    await comments.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectVisible(comments.getByText('No comments yet.'));
  });

  it('share falls back to the clipboard and says so; a failed copy says so too', async () => {
    const { page } = tab;
    tab.dialogs.length = 0;
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => tab.dialogs).toContain('alert: Pin link copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url}/pins/${pinId}`);
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
    });
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => tab.dialogs).toContain('alert: Failed to copy link.');
  });

  it('edits the pin (deep link, reload) and deletes it from its page', async () => {
    const { page } = tab;
    await page.goto(`/pins/${pinId}/edit`);
    await page.reload();
    const title = page.getByLabel('Title');
    await expectVisible(title);
    await title.fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(page.getByText('Title is required.', { exact: true }));
    await title.fill(`${pinTitle} (edited)`);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectPath(page, '/pins');
    await page.getByRole('link', { name: `${pinTitle} (edited)`, exact: true }).click();
    await expectPath(page, `/pins/${pinId}`);
    await page.getByRole('button', { name: 'Delete This Pin' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expectPath(page, '/pins');
    await expectVisible(page.getByRole('heading', { name: 'Your Awesome Pins!' }));
    await expectVisible(page.getByText("You haven't created any pins yet."));
    await commitDelete(page, 'Pin deleted');
  });

  it('logs out to / and shows the signed-out state', async () => {
    const { page } = tab;
    await page.goto('/boards');
    await expectVisible(page.getByRole('heading', { name: 'Boards' }));
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('button', { name: 'Log Out' }).click();
    await expectPath(page, '/');
    await expectGone(page.getByRole('link', { name: 'Add New Pin' }));
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await expectVisible(page.getByRole('link', { name: 'Log In', exact: true }));
    await page.reload();
    await expectVisible(page.getByRole('button', { name: 'Profile menu' }));
    expect(await page.getByRole('link', { name: 'Add New Pin' }).count()).toBe(0);
  });

  it('raised no page errors', () => {
    expect(tab.errors).toEqual([]);
  });
});
