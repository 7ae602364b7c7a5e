// Helpers for the browser end-to-end tests: tabs, screenshots, axe-core checks and assertions that
// wait (the client build and the system Chromium come from scripts/lib/browser.ts, shared with bench:feed).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { BoardPage } from '../../contract/boards.ts';

export { ensureClientBuilt, launchChromium } from '../../scripts/lib/browser.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const screenshotDir = path.join(repoRoot, 'artifacts/screenshots');

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export type Tab = { context: BrowserContext; page: Page; errors: string[]; dialogs: string[]; requests: string[] };

/**
 * How long the page may take to get where a test expects it. Only a bound on waiting (no test
 * asserts speed): on a 2-core CI machine with other work beside it, a page load that takes 1 s
 * idle took over 10 s, so the bound is generous.
 */
export const PAGE_WAIT_MS = 30_000;

/**
 * A new browser context and page. Page errors and console errors are collected (a test asserts
 * none happened); browser dialogs are recorded and accepted (window.confirm answers yes, unless
 * `confirmAnswer` says otherwise).
 */
export async function openTab(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = DESKTOP,
  /**
   * `touch`: a phone (touch screen, no hover: CSS `(hover: none)` matches). `serviceWorkers`: let
   * the app's service worker run (docs/installable-app.md); blocked otherwise, so a test's routes
   * and offline switches see the page's own requests, not answers from the worker's caches.
   */
  options: { touch?: boolean; serviceWorkers?: boolean } = {},
): Promise<Tab & { confirmAnswer: { value: boolean } }> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    serviceWorkers: options.serviceWorkers ? 'allow' : 'block',
    ...(options.touch ? { isMobile: true, hasTouch: true } : {}),
  });
  // Chromium on Linux has no Web Share: make that explicit so the share button takes the clipboard path.
  await context.addInitScript(() => {
    Reflect.deleteProperty(Navigator.prototype, 'share');
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  const tab = { context, page, errors: [] as string[], dialogs: [] as string[], requests: [] as string[], confirmAnswer: { value: true } };
  page.on('pageerror', (error) => tab.errors.push(`pageerror: ${error.message}`));
  page.on('console', (msg) => {
    // Expected 4xx answers show up as failed resource loads; keep real script errors only.
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) tab.errors.push(`console: ${msg.text()}`);
  });
  page.on('request', (request) => {
    if (request.url().includes('/api/')) tab.requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  page.on('dialog', (dialog) => {
    tab.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void (dialog.type() === 'confirm' && !tab.confirmAnswer.value ? dialog.dismiss() : dialog.accept());
  });
  return tab;
}

// The expect… helpers below are assertions: each waits up to its timeout for the page to get there
// and fails the test (Playwright's timeout error names the locator or URL) if it does not.

/** Asserts that the locator's first match shows within `timeout`; returns the locator. */
export async function expectVisible(locator: Locator, timeout = PAGE_WAIT_MS): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

/** Asserts that the locator's first match is hidden or absent within `timeout`. */
export async function expectGone(locator: Locator, timeout = PAGE_WAIT_MS): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/** Asserts that the page's path becomes `pathname` (or matches it) within 10 s. */
/**
 * Sends a deferred delete now (frontend/state/deferred-deletes.ts): dismisses its Undo toast and
 * waits for the DELETE's answer, so what follows sees the deletion.
 */
/** The board's pin ids as the server holds them (the page's own session). */
export async function boardPinIds(page: Page, boardId: number): Promise<number[]> {
  const res = await page.request.get(`/api/boards/${boardId}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as BoardPage).pins.map((pin) => pin.id);
}

export async function commitDelete(page: Page, toastText: string): Promise<void> {
  const toast = page.getByRole('status', { name: 'Notifications' }).locator('.toast', { hasText: toastText });
  const answered = page.waitForResponse((response) => response.request().method() === 'DELETE', { timeout: PAGE_WAIT_MS });
  await toast.getByRole('button', { name: 'Dismiss' }).click({ timeout: PAGE_WAIT_MS });
  expect((await answered).ok()).toBe(true);
}

export async function expectPath(page: Page, pathname: string | RegExp): Promise<void> {
  await page.waitForURL((url) => (typeof pathname === 'string' ? url.pathname === pathname : pathname.test(url.pathname)), { timeout: PAGE_WAIT_MS });
}

/** Waits until every image on the page finished (loaded or failed), so screenshots are stable. */
async function settleImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // Lazy images below the fold never load without scrolling: load them all for the picture.
    for (const img of Array.from(document.images)) img.loading = 'eager';
    await Promise.all(
      Array.from(document.images).map((img) =>
        img.complete
          ? undefined
          : new Promise((resolve) => {
              img.addEventListener('load', resolve, { once: true });
              img.addEventListener('error', resolve, { once: true });
              setTimeout(resolve, 3000);
            }),
      ),
    );
  });
  // Then the fade-ins and other transitions that are under way (not the endless ones, such as a
  // skeleton's shimmer): a fixed pause here cost 22 s in the screens test alone.
  // Two frames first, so a fade started by the last image's load event (a class set on render) runs.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    );
  });
}

/**
 * A full-page screenshot from the top; for an open overlay (menu, dropdown, modal) the viewport as
 * the user sees it, since a full-page capture of a scrolled page misplaces sticky and fixed layers.
 */
export async function screenshot(page: Page, name: string, options: { overlay?: boolean } = {}): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const size = page.viewportSize();
  const file = path.join(screenshotDir, `${name}-${size?.width}x${size?.height}.jpg`);
  await settleImages(page);
  if (!options.overlay) await page.evaluate(() => window.scrollTo(0, 0));
  // JPEG: to look at, not to compare. Encoding tall pages as PNG was 8 % of the screens file's CPU.
  await page.screenshot({ path: file, fullPage: !options.overlay, type: 'jpeg', quality: 85 });
  return file;
}

const axeSource = readFileSync(path.join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> };

/** Runs axe-core on the page; returns serious and critical violations (there should be none). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // A fading-in layer (a toast's 0.15 s fade) read mid-animation has half its contrast: wait for
  // every finite animation to end first (spinners and shimmers loop forever and are left alone).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an inline tag.
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  const summary = violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  expect(summary, `axe on ${label}`).toEqual([]);
}

let counter = 0;
/** A unique account for one test run. */
export function newAccount(prefix: string) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
  return { email: `${prefix}-${tag}@example.com`, username: `${prefix}_${tag}`.slice(0, 40), password: `pw-${tag}-secret` };
}

export async function signUp(page: Page, account: { email: string; username: string; password: string }): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expectPath(page, '/');
  await expectVisible(page.getByRole('link', { name: 'Favorites' })); // shown at every width once signed in
}

export async function demoLogin(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in as Demo User' }).click();
  await expectPath(page, '/');
  await expectVisible(page.getByRole('link', { name: 'Favorites' })); // shown at every width once signed in
}

/** `broken`: the image does not load, so the page asks "… Save anyway?" first (after its preview failed). */
export async function createPin(page: Page, pin: { title: string; imageUrl: string; description?: string; broken?: boolean }): Promise<number> {
  await page.goto('/pins/new');
  await page.getByLabel('Title').fill(pin.title);
  await page.getByLabel('Image URL').fill(pin.imageUrl);
  if (pin.description) await page.getByLabel('Description (optional)').fill(pin.description);
  if (pin.broken) await expectVisible(page.getByRole('img', { name: 'Preview of the image' }).and(page.locator('.pin-image--fallback')));
  await page.getByRole('button', { name: 'Save Pin' }).click();
  if (pin.broken) {
    const dialog = page.getByRole('alertdialog');
    await expectVisible(dialog.getByText('This image could not be loaded. Save anyway?'));
    await dialog.getByRole('button', { name: 'Save anyway' }).click();
  }
  await expectPath(page, '/pins');
  const link = page.getByRole('link', { name: pin.title, exact: true });
  await expectVisible(link);
  const href = await link.first().getAttribute('href');
  return Number(href?.split('/').pop());
}

/**
 * Opens the app and waits until its service worker controls the page. The install fetches every
 * file of the build: on a loaded machine one may fail, which fails that install (as in a browser,
 * the next visit tries again: here, the next poll registers again).
 */
export async function controlledByWorker(page: Page): Promise<void> {
  await page.goto('/');
  // Where the registration stands, or the controlling worker's address once it controls the page.
  // A worker that is active but did not claim this page (its claim raced the page's load) controls
  // the next navigation: the page is reloaded then. A failure says where the registration stood.
  const controller = async () => {
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      if (!registration) await navigator.serviceWorker.register('/sw.js').catch(() => undefined);
      const where = registration
        ? `installing ${String(Boolean(registration.installing))}, waiting ${String(Boolean(registration.waiting))}, active ${registration.active?.state ?? 'none'}`
        : 'no registration';
      return navigator.serviceWorker.controller?.scriptURL ?? where;
    });
    if (state.endsWith('active activated')) {
      // Not while the page is loading something: an aborted request would be logged as an error.
      await page.waitForLoadState('networkidle');
      await page.reload({ waitUntil: 'networkidle' });
    }
    return state;
  };
  await expect.poll(controller, { timeout: 2 * PAGE_WAIT_MS, interval: 500 }).toMatch(/\/sw\.js$/);
}
