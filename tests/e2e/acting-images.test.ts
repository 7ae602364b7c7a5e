// A pin's image address must never act on whoever sees it. Pins whose image names an API path
// (stored before the server refused them, so written here with SQL) are shown on every screen to a
// signed-in visitor, who must still be signed in afterwards; and even an image that does request
// the logout address cannot sign anyone out.
import { beforeAll, expect, it } from 'vitest';
import type { SessionBody } from '../../contract/users.ts';
import { DEMO_PINS } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { demoLogin, expectVisible, type Tab } from './browser.ts';

const pinIds: number[] = [];

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

beforeAll(async () => {
  const { db } = app.server.database;
  const demo = await db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  const acting = [
    '/api/auth/logout',
    '/%61pi/auth/logout',
    '/API/auth/logout',
    '/seed-images/../api/auth/logout',
    '/seed-images/%2e%2e/api/auth/logout',
    '\\api\\auth\\logout',
    `${app.url}/api/auth/logout`,
  ];
  for (const [index, imageUrl] of acting.entries()) {
    const row = await db
      .insertInto('pins')
      .values({ user_id: demo.id, title: `Acting image ${index}`, image_url: imageUrl, description: imageUrl })
      .returning('id')
      .executeTakeFirstOrThrow();
    pinIds.push(row.id);
  }
});

async function signedInUser(tab: Tab): Promise<string | null> {
  const body = await tab.page.evaluate(async () => (await fetch('/api/auth/', { credentials: 'same-origin' })).json() as Promise<SessionBody>);
  return body.user?.username ?? null;
}

it('a signed-in visitor who views pins whose images name API paths stays signed in', async () => {
  const tab = await app.openTab();
  await demoLogin(tab.page);
  const pages = ['/', '/pins', ...pinIds.map((id) => `/pins/${id}`)];
  for (const path of pages) {
    await tab.page.goto(path);
    await expectVisible(tab.page.getByText(/Acting image/));
    // Every image on the page has finished (or was never requested) before the session is checked.
    await tab.page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
    expect(await signedInUser(tab), path).toBe('demo');
  }
  expect(tab.requests.filter((request) => /logout/i.test(request))).toEqual([]);
  // The cards show the placeholder for an unusable image instead.
  await tab.page.goto(`/pins/${pinIds[0]}`);
  await expectVisible(tab.page.getByText('Image unavailable'));
  await tab.context.close();
});

it('an <img> that does request the logout address cannot sign anyone out', async () => {
  const tab = await app.openTab();
  await demoLogin(tab.page);
  const status = await tab.page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const img = document.createElement('img');
        img.onload = () => resolve('loaded');
        img.onerror = () => resolve('refused');
        img.src = '/api/auth/logout';
        document.body.append(img);
      }),
  );
  expect(status).toBe('refused');
  expect(tab.requests).toContain('GET /api/auth/logout');
  expect(await signedInUser(tab)).toBe('demo');
  // A top-level navigation to it (a link, another site's redirect) is refused the same way.
  const response = await tab.page.goto('/api/auth/logout');
  expect(response?.status()).toBe(403);
  await tab.page.goto('/');
  expect(await signedInUser(tab)).toBe('demo');
  await tab.context.close();
});

it('the Log Out menu item still signs out', async () => {
  const tab = await app.openTab();
  await demoLogin(tab.page);
  await tab.page.getByRole('button', { name: 'Profile menu' }).click();
  await tab.page.getByRole('button', { name: 'Log Out' }).click();
  await tab.page.getByRole('link', { name: 'Favorites' }).waitFor({ state: 'hidden' }); // signed-in only
  expect(await signedInUser(tab)).toBeNull();
  expect(tab.errors).toEqual([]);
  await tab.context.close();
});
