import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ensureClientBuilt, launchChromium } from '../../scripts/lib/browser.ts';
import { openTab } from '../e2e/browser.ts';
import type { StartOptions } from './server.ts';
import { type OptionsSource, type ServerContext, useTestServer } from './use-test-server.ts';

type TabArgs = Parameters<typeof openTab> extends [Browser, string, ...infer Rest] ? Rest : never;

export interface BrowserServerContext extends ServerContext {
  /** The system Chromium, launched for the suite. */
  readonly browser: Browser;
  /** A new browser context and page on the server: tests/e2e/browser.ts `openTab` (viewport, touch). */
  openTab(...args: TabArgs): ReturnType<typeof openTab>;
}

/**
 * The browser tests' setup: the client built (dist/public, which the server serves), a server as
 * useTestServer starts it, and the system Chromium. All ready before the suite's first test; after
 * its last the browser is closed, then the server stopped.
 */
export function useBrowserServer(options: OptionsSource<StartOptions> = {}): BrowserServerContext {
  beforeAll(() => ensureClientBuilt());
  const server = useTestServer(options);
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const running = (): Browser => {
    if (!browser) throw new Error('the browser is not running (use it in hooks and tests, not at the top of the file)');
    return browser;
  };
  // Added as properties, not spread: the server context's fields are getters read when used.
  // The cast names what the two properties just added make of it.
  return Object.defineProperties(server, {
    browser: { get: running, enumerable: true },
    openTab: { value: (...args: TabArgs) => openTab(running(), server.url, ...args), enumerable: true },
  }) as BrowserServerContext;
}
