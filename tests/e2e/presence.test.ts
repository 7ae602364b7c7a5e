// Presence in the system Chromium (docs/presence.md): a pin's page shows how many people have it
// open, live. Two windows (separate contexts: two anonymous visitors) on one pin, the real server
// with Redis; asserted as a person sees it.
import { expect, it } from 'vitest';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { expectGone, expectVisible, type Tab } from './browser.ts';

const tabs: Tab[] = [];

const app = useBrowserServer({ seed: { pins: 2 }, redis: true });

it('the pin page shows "N people viewing", live, as a second window opens and closes (nothing for a reader alone)', async () => {
  const pinId = app.seeded?.pins[0]?.id;
  expect(pinId).toBeDefined();
  const first = await app.openTab();
  const second = await app.openTab();
  tabs.push(first, second);

  await first.page.goto(`/pins/${pinId}`);
  await expectVisible(first.page.getByRole('heading', { level: 1 }));
  await second.page.goto(`/pins/${pinId}`);
  await expectVisible(second.page.getByText('2 people viewing'));
  await expectVisible(first.page.getByText('2 people viewing'));

  // The second window goes elsewhere: the first is alone again, and the line goes.
  await second.page.goto('/');
  await expectGone(first.page.getByText('2 people viewing'));
  expect(await first.page.getByText(/viewing/).count()).toBe(0);
  await second.context.close();
  expect([...first.errors, ...second.errors]).toEqual([]);
});
