// Who sees what: the demo login, anonymous visitors, another signed-in user; redirects and deep links.
import { describe, expect, it } from 'vitest';
import type { DemoImage } from '../../db/demo-catalog.ts';
import { DEMO_PINS, DRAWING_URL, seededImages } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { createPin, demoLogin, expectGone, expectPath, expectVisible, newAccount, signUp } from './browser.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

describe('roles and routing', () => {
  it('demo login signs in as the demo user', async () => {
    const tab = await app.openTab();
    await demoLogin(tab.page);
    await tab.page.getByRole('button', { name: 'Profile menu' }).click();
    await expectVisible(tab.page.getByText('Hello, Demo'));
    await expectVisible(tab.page.getByText('demo@pinboard.test'));
    await tab.page.goto('/boards');
    await expectVisible(tab.page.getByText('Photo walk'));
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('a wrong password shows the credential message under the form', async () => {
    const tab = await app.openTab();
    await tab.page.goto('/login');
    await tab.page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expectVisible(tab.page.getByText('Email is required.'));
    await expectVisible(tab.page.getByText('Password is required.'));
    await tab.page.getByLabel('Email').fill('demo@pinboard.test');
    await tab.page.getByLabel('Password').fill('not-the-password');
    await tab.page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expectVisible(tab.page.getByText('The provided credentials were invalid.'));
    await tab.context.close();
  });

  it('anonymous visitors browse without hearts, Add Comment or Edit links', async () => {
    const tab = await app.openTab();
    const { page } = tab;
    await page.goto('/');
    const grid = page.getByRole('region', { name: 'All pins' });
    await expectVisible(grid.getByRole('article'));
    expect(await grid.getByRole('article').count()).toBe(DEMO_PINS);
    // No heart: only Save, which asks a signed-out visitor to log in.
    expect(await grid.getByRole('button', { name: /favorites/ }).count()).toBe(0);
    expect(await grid.getByRole('button', { name: /^Save .* to a board$/ }).count()).toBe(DEMO_PINS);
    expect(await grid.getByRole('link', { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Favorites' }).count()).toBe(0);

    await grid.getByRole('link', { name: (seededImages[0] as DemoImage).title, exact: true }).click();
    await expectPath(page, /^\/pins\/\d+$/);
    await expectVisible(page.getByText('Pin owner: demo', { exact: true }));
    await expectVisible(page.getByText('Those colours are unreal. Where was this?'));
    expect(await page.getByRole('button', { name: 'Add Comment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add To Favorites' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add To Board' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit This Pin' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('the home order is shuffled once per visit and stays while browsing', async () => {
    const tab = await app.openTab();
    const { page } = tab;
    const order = () => page.locator('article[data-pin-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-pin-id')).join(','));
    await page.goto('/');
    await expectVisible(page.locator('article[data-pin-id]'));
    const first = await order();
    await page.locator('article[data-pin-id] .pin-card__title').first().click();
    await expectPath(page, /^\/pins\/\d+$/);
    await page.goBack();
    await expectVisible(page.locator('article[data-pin-id]'));
    expect(await order()).toBe(first);
    const seen = new Set([first]);
    for (let i = 0; i < 4 && seen.size === 1; i++) {
      await page.reload();
      await expectVisible(page.locator('article[data-pin-id]'));
      seen.add(await order());
    }
    expect(seen.size).toBeGreaterThan(1); // a new visit shuffles anew (12! orders)
    await tab.context.close();
  });

  it('another user sees no Edit/Delete on your pin; signed-in-only pages send anonymous visitors to login and back', async () => {
    const owner = await app.openTab();
    await signUp(owner.page, newAccount('owner'));
    const title = `Owner only ${Date.now()}`;
    const pinId = await createPin(owner.page, { title, imageUrl: DRAWING_URL });

    const other = await app.openTab();
    const otherAccount = newAccount('other');
    // Deep link to a signed-in page while anonymous: login first, then back to it.
    await other.page.goto(`/pins/${pinId}/edit`);
    await expectPath(other.page, '/login');
    await other.page.getByRole('form', { name: 'Log In' }).getByRole('link', { name: 'Sign up' }).click();
    await expectPath(other.page, '/signup');
    await other.page.getByLabel('Email').fill(otherAccount.email);
    await other.page.getByLabel('Username').fill(otherAccount.username);
    await other.page.getByLabel('Password', { exact: true }).fill(otherAccount.password);
    await other.page.getByLabel('Confirm Password').fill(otherAccount.password);
    await other.page.getByRole('button', { name: 'Sign Up' }).click();
    await expectPath(other.page, `/pins/${pinId}/edit`);
    await expectVisible(other.page.getByRole('heading', { name: 'Not your pin' }));

    await other.page.goto(`/pins/${pinId}`);
    await expectVisible(other.page.getByRole('button', { name: 'Add To Favorites' }));
    expect(await other.page.getByRole('link', { name: 'Edit This Pin' }).count()).toBe(0);
    expect(await other.page.getByRole('button', { name: 'Delete This Pin' }).count()).toBe(0);
    await other.page.goto('/');
    const card = other.page.locator(`article[data-pin-id="${pinId}"]`);
    await expectVisible(card);
    expect(await card.getByRole('link', { name: /^Edit / }).count()).toBe(0);
    await expectVisible(card.getByRole('button', { name: `Add ${title} to favorites` }));

    // A signed-in visitor is sent away from /login and /signup.
    await other.page.goto('/login');
    await expectPath(other.page, '/');
    await other.page.goto('/signup');
    await expectPath(other.page, '/');
    expect(owner.errors).toEqual([]);
    expect(other.errors).toEqual([]);
    await owner.context.close();
    await other.context.close();
  });

  it('deep links work on reload; unknown routes and ids show the not-found page', async () => {
    const tab = await app.openTab();
    const { page } = tab;
    await demoLogin(page);
    await page.goto('/boards');
    await page.getByRole('link', { name: /Photo walk/ }).click();
    await expectPath(page, /^\/boards\/\d+$/);
    const boardPath = new URL(page.url()).pathname;
    await page.goto(`${boardPath}/manage-pins`);
    await page.reload();
    await expectVisible(page.getByRole('heading', { name: 'Manage Photo walk Pins' }));
    await page.goto('/no/such/page');
    await expectVisible(page.getByRole('heading', { name: 'Page not found' }));
    await page.goto('/pins/999999');
    await expectVisible(page.getByRole('heading', { name: 'Pin not found' }));
    await page.goto('/boards/999999');
    await expectVisible(page.getByRole('heading', { name: 'Board not found' }));
    await page.goto('/pins/abc');
    await expectVisible(page.getByRole('heading', { name: 'Pin not found' }));
    await expectGone(page.getByText('Loading…'));
    await tab.context.close();
  });
});
