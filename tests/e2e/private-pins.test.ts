// Who sees what, in the system Chromium (docs/who-sees-what.md): the owner switches a pin to
// private on its page and sees the lock on it in their grid; an anonymous visitor who has the home
// page and a search results page open sees it go without a reload, and come back when it is made
// public again. Screenshots of the switch and the lock at phone and desktop size.
import { describe, expect, it } from 'vitest';
import { PHOTO_URL } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { createPin, DESKTOP, expectAccessible, expectGone, expectVisible, newAccount, PHONE, screenshot, signUp } from './browser.ts';

const app = useBrowserServer();

describe('private pins', () => {
  it('made private on its page, a pin leaves the open home grid and search results of an anonymous visitor, and comes back when made public', async () => {
    const owner = await app.openTab(DESKTOP);
    await signUp(owner.page, newAccount('keeper'));
    const word = `quokka${Date.now().toString(36)}`;
    const title = `A ${word} for Anna`;
    const pinId = await createPin(owner.page, { title, imageUrl: PHOTO_URL, description: 'Her birthday' });

    const home = await app.openTab(DESKTOP);
    await home.page.goto('/');
    const onHome = home.page.getByRole('link', { name: title, exact: true });
    await expectVisible(onHome);
    const search = await app.openTab(PHONE);
    await search.page.goto(`/search?q=${word}`);
    const found = search.page.getByRole('link', { name: title, exact: true });
    await expectVisible(found);

    await owner.page.goto(`/pins/${pinId}`);
    const who = owner.page.getByRole('group', { name: 'Who can see this pin' });
    await expectVisible(who);
    await who.getByRole('radio', { name: 'Private' }).check();
    await expectVisible(owner.page.getByText("Only you and the boards' members can see this pin"));
    await expectAccessible(owner.page, 'the pin page with its visibility');
    console.log('screenshot', await screenshot(owner.page, 'pin-private-switch'));

    // Gone from the visitor's open pages, without a reload.
    await expectGone(onHome);
    await expectGone(found);
    const started = Date.now();
    expect((await home.page.request.get(`/api/pins/${pinId}`)).status()).toBe(404);

    // The owner's own grid marks it with a lock.
    await owner.page.goto('/pins');
    const card = owner.page.locator(`[data-pin-id="${pinId}"]`);
    await expectVisible(card.getByTitle('Private pin'));
    console.log('screenshot', await screenshot(owner.page, 'your-pins-lock'));

    // Public again: back in place on both open pages.
    await owner.page.goto(`/pins/${pinId}`);
    await owner.page.getByRole('group', { name: 'Who can see this pin' }).getByRole('radio', { name: 'Public' }).check();
    await expectVisible(onHome);
    await expectVisible(found);
    console.log(`hidden and shown again on the visitor's open pages within ${Date.now() - started} ms of the switch back`);
    for (const tab of [owner, home, search]) expect(tab.errors).toEqual([]);
  });

  it('on a phone, the switch and the lock fit the screen', async () => {
    const { page, errors } = await app.openTab(PHONE);
    await signUp(page, newAccount('phoneowner'));
    const title = `Phone secret ${Date.now().toString(36)}`;
    const pinId = await createPin(page, { title, imageUrl: PHOTO_URL });
    await page.goto(`/pins/${pinId}`);
    const who = page.getByRole('group', { name: 'Who can see this pin' });
    await who.getByRole('radio', { name: 'Private' }).check();
    await expectVisible(page.getByText("Only you and the boards' members can see this pin"));
    const box = await who.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await who.scrollIntoViewIfNeeded();
    console.log('screenshot', await screenshot(page, 'pin-private-switch', { overlay: true }));
    await page.goto('/pins');
    await expectVisible(page.locator(`[data-pin-id="${pinId}"]`).getByTitle('Private pin'));
    console.log('screenshot', await screenshot(page, 'your-pins-lock'));
    expect(errors).toEqual([]);
  });
});
