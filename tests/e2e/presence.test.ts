// Presence in the system Chromium (DESIGN §12): a pin's page shows how many people have it open,
// live. Two windows (separate contexts: two anonymous visitors) on one pin, the real server with
// Redis; asserted as a person sees it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { ensureClientBuilt, expectGone, expectVisible, launchChromium, openTab, type Tab } from './browser.ts';

let server: TestServer;
let browser: Browser;
const tabs: Tab[] = [];

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer({ seed: { pins: 2 }, redis: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('the pin page shows "N people viewing", live, as a second window opens and closes (nothing for a reader alone)', async () => {
  const pinId = server.seeded?.pins[0]?.id;
  expect(pinId).toBeDefined();
  const first = await openTab(browser, server.url);
  const second = await openTab(browser, server.url);
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
