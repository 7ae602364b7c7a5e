// A signed-out visitor in the system Chromium: the bar shows "Log in" and "Sign up" (phone and
// desktop, with screenshots and an axe check), and /pins/abc shows "Pin not found" without any page
// or console error.
import { describe, expect, it } from 'vitest';
import { DEMO_PINS } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PHONE, expectPath, expectVisible, screenshot, seriousA11yViolations } from './browser.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

describe('signed-out visitors', () => {
  for (const viewport of [PHONE, { width: 1440, height: 900 }, DESKTOP]) {
    it(`see "Log in" and "Sign up" in the bar at ${viewport.width} px`, async () => {
      const { page, errors, context } = await app.openTab(viewport);
      await page.goto('/');
      const bar = page.getByRole('navigation', { name: 'Main' });
      const login = await expectVisible(bar.getByRole('link', { name: 'Log in', exact: true }));
      const signup = await expectVisible(bar.getByRole('link', { name: 'Sign up', exact: true }));
      // Both fit in the bar, side by side, within the viewport.
      const [a, b] = [await login.boundingBox(), await signup.boundingBox()];
      expect(a && b && a.x + a.width <= b.x && b.x + b.width <= viewport.width).toBe(true);
      // One line each: as tall as the bar's other 44 px links, not wrapped.
      expect([a?.height, b?.height]).toEqual([44, 44]);
      expect(await seriousA11yViolations(page)).toEqual([]);
      console.log('screenshot', await screenshot(page, 'guest-home'));
      await signup.click();
      await expectPath(page, '/signup');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('/pins/abc shows "Pin not found" with no page error and no console error', async () => {
    const { page, errors, context } = await app.openTab(DESKTOP);
    await page.goto('/pins/abc');
    await expectVisible(page.getByRole('heading', { name: 'Pin not found' }));
    await page.waitForTimeout(500); // let any late effect log
    expect(errors).toEqual([]);
    await context.close();
  });
});
