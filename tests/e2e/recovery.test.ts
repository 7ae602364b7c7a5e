// Coming back online in the system Chromium (docs/images.md, docs/paging.md): on a phone and on a
// desktop, the home grid loaded partway goes offline, is scrolled so that pictures and the next
// page fail, and comes back: within 5 s every card on screen shows its picture and the next page
// has arrived, without a click. A pin page opened offline says so, and loads by itself once back.
// Each card hotlinks its own picture (a size of its own on the fixture picture host, never cached),
// so a picture scrolled to offline really failed. The times are printed.
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser } from '../support/client.ts';
import { type FixtureSites, startFixtureSites } from '../support/fixture-sites.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PAGE_WAIT_MS, PHONE, expectVisible, newAccount, screenshot, signUp } from './browser.ts';

/** Three pages of the home feed (50 a page). */
const PINS = 150;
/** The product's promise: back within 5 s of the connection's return. */
const RECOVERY_MS = 5_000;
const OFFLINE_TEXT = "You're offline — this will load when you're back.";

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
}, 60_000);
afterAll(async () => {
  await sites?.close();
});
const app = useBrowserServer({ redis: true });

beforeAll(async () => {
  const db = app.server.database.db;
  const owner = (await signUpUser(app.url, 'recoveryowner')).user;
  // Every pin its own picture size (so its own address), 200–349 px wide.
  await sql`
    insert into pins (user_id, title, image_url, description, created_at, updated_at)
    select ${owner.id}, 'Picture ' || n, ${sites.images} || '/photo/' || (199 + n) || 'x' || (150 + (n * 37) % 200) || '.jpg', '',
           now() - n * interval '1 minute', now() - n * interval '1 minute'
    from generate_series(1, ${PINS}) as n`.execute(db);
});

/** The cards laid out now: each one's picture loaded, failed (the fallback) or on its way. */
function cardImages(page: Page) {
  return page.evaluate(() => {
    const cards = Array.from(document.querySelectorAll<HTMLElement>('.masonry__items > [role="listitem"]')).filter((cell) => cell.style.visibility !== 'hidden');
    let loaded = 0;
    let failed = 0;
    let waiting = 0;
    for (const cell of cards) {
      const img = cell.querySelector('img');
      if (cell.querySelector('.pin-image--fallback')) failed += 1;
      else if (img?.complete && img.naturalWidth > 0) loaded += 1;
      else waiting += 1;
    }
    return { cards: cards.length, loaded, failed, waiting };
  });
}

/** Scrolls to the end of what is loaded, so the grid asks for the next page (and its cards' pictures). */
async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(200);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

describe.each([
  ['phone', PHONE, true],
  ['desktop', DESKTOP, false],
] as const)('coming back online (%s)', (name, viewport, touch) => {
  it('every failed picture and the failed page load by themselves, without a click', async () => {
    const { page, context } = await app.openTab(viewport, { touch });
    await signUp(page, newAccount(`back${name}`));
    await expectVisible(page.locator('article[data-pin-id]').first());
    await expect.poll(async () => (await cardImages(page)).waiting, { timeout: PAGE_WAIT_MS }).toBe(0);
    const pageAnswers: number[] = [];
    page.on('response', (response) => {
      if (/\/api\/pins\/?\?.*cursor=/.test(response.url())) pageAnswers.push(response.status());
    });

    await context.setOffline(true);
    await scrollToEnd(page);
    // The next page failed (the grid's footer offers it again) and pictures scrolled to failed.
    await expectVisible(
      page
        .getByText(OFFLINE_TEXT)
        .or(page.getByRole('button', { name: 'Try again' }))
        .first(),
    );
    await expect.poll(async () => (await cardImages(page)).failed, { timeout: PAGE_WAIT_MS }).toBeGreaterThan(0);
    const offline = await cardImages(page);
    console.log(`${name}: offline, ${offline.failed} of ${offline.cards} cards on screen without their picture`);
    expect(pageAnswers.filter((status) => status === 200)).toEqual([]);

    await context.setOffline(false);
    const back = Date.now();
    await expect
      .poll(
        async () => {
          const now = await cardImages(page);
          return { failed: now.failed, waiting: now.waiting, nextPage: pageAnswers.includes(200) };
        },
        { timeout: RECOVERY_MS, interval: 100 },
      )
      .toEqual({ failed: 0, waiting: 0, nextPage: true });
    console.log(`${name}: every card's picture and the next page back ${Date.now() - back} ms after the connection returned`);
    await expect.poll(() => page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await screenshot(page, `recovery-grid-back-online-${name}`, { overlay: true });
    await context.close();
  });

  it('a pin page opened offline says so, and loads by itself once back', async () => {
    const { page, context } = await app.openTab(viewport, { touch });
    await signUp(page, newAccount(`pinback${name}`));
    const [first, second] = await app.server.database.db.selectFrom('pins').select(['id', 'title']).orderBy('id').limit(2).execute();
    if (!first || !second) throw new Error('no pins');
    // One pin page opened online (the app and the pin page's script are here), then, offline, a
    // link to another pin the tab knows nothing of.
    await page.goto(`/pins/${first.id}`);
    await expectVisible(page.getByRole('heading', { level: 1, name: first.title }));
    await context.setOffline(true);
    await page.evaluate((path) => {
      history.pushState(null, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `/pins/${second.id}`);
    await expectVisible(page.getByText(OFFLINE_TEXT));
    await screenshot(page, `recovery-pin-offline-${name}`, { overlay: true });
    await context.setOffline(false);
    const back = Date.now();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: second.title }).count(), { timeout: RECOVERY_MS, interval: 100 }).toBe(1);
    console.log(`${name}: pin ${second.id} loaded ${Date.now() - back} ms after the connection returned`);
    await expect.poll(() => page.getByText(OFFLINE_TEXT).count()).toBe(0);
    await context.close();
  });
});
