// Lists at scale in the system Chromium (docs/paging.md, docs/grid.md): a home grid of thousands of
// pins (seeded with SQL) is a virtualized masonry that pages as the reader scrolls, keeps its order
// and place across a visit to a pin and Back, and takes new pins in only when the reader asks.
// Timings are printed, never asserted.
import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoImageUrl } from '../../db/demo-catalog.ts';
import { DEMO_PINS, DRAWING_URL, seededImages } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PHONE, createPin, expectAccessible, newAccount, expectPath, screenshot, signUp, expectVisible } from './browser.ts';
import { gotoWithScriptHeld, homeSeedOf, watchShuffles } from './ux-helpers.ts';

const BULK = 3000;
/** Far more than one screen and its overscan hold at 1280×800, far fewer than the pins scrolled. */
const MOUNTED_BOUND = 200;
/** The bulk pins reuse the seeded pictures' files (plain slugs: safe inside the SQL literal below). */
const IMAGES = seededImages.map(demoImageUrl);

const app = useBrowserServer({ seed: { pins: DEMO_PINS }, redis: true });

beforeAll(async () => {
  const db = app.server.database.db;
  const owner = await db.selectFrom('users').select('id').where('username', '=', 'maya').executeTakeFirstOrThrow();
  const images = sql.raw(`array[${IMAGES.map((url) => `'${url}'`).join(',')}]`);
  await sql`
    insert into pins (user_id, title, image_url, description, created_at, updated_at)
    select ${owner.id}, 'Bulk pin ' || n, (${images})[1 + n % ${IMAGES.length}], '', now() - n * interval '1 minute', now() - n * interval '1 minute'
    from generate_series(1, ${BULK}) as n`.execute(db);
});

/** What the grid shows: mounted cards, and each laid-out card's id and box (page coordinates). */
function readGrid(page: Page) {
  return page.evaluate(() => {
    const cards = Array.from(document.querySelectorAll<HTMLElement>('.masonry__items > [role="listitem"]'))
      .filter((cell) => cell.style.visibility !== 'hidden')
      .map((cell) => {
        const card = cell.querySelector('[data-pin-id]');
        const box = cell.getBoundingClientRect();
        return { id: Number(card?.getAttribute('data-pin-id')), top: Math.round(box.top + window.scrollY), left: Math.round(box.left) };
      })
      .filter((card) => card.id > 0);
    return { mounted: document.querySelectorAll('article[data-pin-id]').length, cards, scrollY: window.scrollY };
  });
}

/** The id of the card at the viewport's centre (or the nearest card to it). */
function centreCard(page: Page): Promise<number> {
  return page.evaluate(() => {
    const x = window.innerWidth / 2;
    const y = window.innerHeight / 2;
    let best = { id: 0, distance: Infinity };
    for (const card of Array.from(document.querySelectorAll<HTMLElement>('article[data-pin-id]'))) {
      const box = card.getBoundingClientRect();
      if (!box.width) continue;
      const distance = Math.hypot(Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
      if (distance < best.distance) best = { id: Number(card.getAttribute('data-pin-id')), distance };
    }
    return best.id;
  });
}

/** Resolves once the page's live socket is connected (Socket.IO's "40" frame), set up before it opens. */
function liveConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).startsWith('40')) resolve();
      });
    });
  });
}

/** Scrolls down by `by` pixels, then waits until no page is on its way (the footer is quiet). */
async function scrollDown(page: Page, by: number): Promise<void> {
  await page.evaluate((dy) => window.scrollBy(0, dy), by);
  await page.waitForTimeout(150);
  await page.waitForFunction(() => !/^Loading/.test(document.querySelector('.masonry__footer')?.textContent ?? ''), undefined, { timeout: 30_000 });
}

/**
 * Scrolls to `y`. The page may be shorter than that until more pages arrive, which the scroll
 * itself brings: scroll again until the page is there (bounded by the default timeout).
 */
async function scrollTo(page: Page, y: number): Promise<void> {
  await page.waitForFunction(
    (top) => {
      window.scrollTo(0, top);
      return Math.abs(window.scrollY - top) < 2;
    },
    y,
    { polling: 250, timeout: 30_000 },
  );
  // Let masonic catch up with the scroll (it follows at 12 frames a second).
  await page.waitForTimeout(150);
}

describe('home grid at scale', () => {
  it('scrolling thousands of pins keeps the mounted cards bounded, pages ahead, and shows each pin once', async () => {
    const tab = await app.openTab();
    const shuffles = watchShuffles(tab.page);
    const started = Date.now();
    await tab.page.goto('/');
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    console.log(`first card after ${Date.now() - started} ms`);

    const places = new Map<number, string>();
    let maxMounted = 0;
    for (let step = 0; step < 80; step++) {
      await scrollDown(tab.page, 1600);
      const grid = await readGrid(tab.page);
      maxMounted = Math.max(maxMounted, grid.mounted);
      for (const card of grid.cards) {
        const place = `${card.top}:${card.left}`;
        // A pin laid out in two places would be a duplicate.
        expect(places.get(card.id) ?? place, `pin ${card.id}`).toBe(place);
        places.set(card.id, place);
      }
    }
    console.log(`scrolled ${places.size} pins in ${Date.now() - started} ms; at most ${maxMounted} cards mounted; ${shuffles.length} pages`);
    expect(places.size).toBeGreaterThan(1000);
    expect(maxMounted).toBeLessThanOrEqual(MOUNTED_BOUND);
    expect(new Set(shuffles.map((s) => s.seed)).size).toBe(1); // one visit, one order
    expect(shuffles.length).toBeGreaterThan(10); // paged, not one answer with everything
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('a pin and Back: the same order, with the same card at the centre; the logo starts a new visit', async () => {
    const tab = await app.openTab();
    const shuffles = watchShuffles(tab.page);
    const servedSeed = homeSeedOf(await (await tab.page.goto('/'))?.text());
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    await scrollTo(tab.page, 5000);
    const before = await readGrid(tab.page);
    const centre = await centreCard(tab.page);
    expect(centre).toBeGreaterThan(0);
    const requestsBefore = shuffles.length;

    await tab.page.locator(`article[data-pin-id="${centre}"] .pin-card__title`).click();
    await expectPath(tab.page, `/pins/${centre}`);
    await expectVisible(tab.page.getByRole('heading', { level: 1 }));
    await tab.page.goBack();
    await expectPath(tab.page, '/');
    await expectVisible(tab.page.locator(`article[data-pin-id="${centre}"]`));
    await tab.page.waitForTimeout(300);
    expect(await centreCard(tab.page)).toBe(centre);
    const after = await readGrid(tab.page);
    // The cards in view are the same ones, in the same places.
    const inView = (grid: typeof before) =>
      grid.cards
        .filter((c) => c.top >= grid.scrollY && c.top < grid.scrollY + DESKTOP.height)
        .map((c) => `${c.id}@${c.top}:${c.left}`)
        .sort();
    expect(inView(after)).toEqual(inView(before));
    expect(shuffles.slice(requestsBefore).filter((s) => s.cursor === null)).toEqual([]); // no new page one

    // The visit's first page came with the HTML: what it asked for were the next pages, of its seed.
    expect(shuffles.length).toBeGreaterThan(0);
    expect(shuffles.filter((s) => s.cursor === null || s.seed !== servedSeed)).toEqual([]);

    // The logo is a new visit: page one again, with another seed.
    await tab.page.getByRole('link', { name: 'Pinboard' }).click();
    await tab.page.waitForFunction(() => window.scrollY === 0);
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    const firstPages = shuffles.filter((s) => s.cursor === null);
    expect(firstPages).toHaveLength(1);
    expect(firstPages[0]?.seed).not.toBe(servedSeed);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('a pin created by another user shows "1 new pin"; the grid does not move until the pill is clicked', async () => {
    const reader = await app.openTab();
    const connected = liveConnected(reader.page);
    await reader.page.goto('/');
    await expectVisible(reader.page.locator('article[data-pin-id]'));
    await connected;
    await scrollTo(reader.page, 1200);
    const before = await readGrid(reader.page);

    const author = await app.openTab();
    await signUp(author.page, newAccount('grid'));
    const title = `Fresh pin ${Date.now()}`;
    await author.page.goto('/pins/new');
    await author.page.getByLabel('Title').fill(title);
    await author.page.getByLabel('Image URL').fill(DRAWING_URL);
    await author.page.getByRole('button', { name: 'Save Pin' }).click();
    await expectPath(author.page, '/pins');

    const pill = reader.page.getByRole('button', { name: '1 new pin' });
    await expectVisible(pill);
    const during = await readGrid(reader.page);
    expect(during.scrollY).toBe(before.scrollY);
    const places = (grid: typeof before) => new Map(grid.cards.map((c) => [c.id, `${c.top}:${c.left}`]));
    const kept = places(before);
    for (const [id, place] of places(during)) if (kept.has(id)) expect(place, `pin ${id}`).toBe(kept.get(id));
    expect(await reader.page.getByRole('link', { name: title }).count()).toBe(0);

    await pill.click();
    await reader.page.waitForFunction(() => window.scrollY === 0);
    await expectVisible(reader.page.getByRole('link', { name: title }));
    const first = (await readGrid(reader.page)).cards.sort((a, b) => a.top - b.top || a.left - b.left)[0];
    expect(first?.id).toBe(Number((await reader.page.getByRole('link', { name: title }).first().getAttribute('href'))?.split('/').pop()));
    expect(await pill.count()).toBe(0);
    expect(reader.errors).toEqual([]);
    await author.context.close();
    await reader.context.close();
  });

  it('screenshots and accessibility: skeleton, grid and pill at 1280×800 and 390×844', async () => {
    const author = await app.openTab();
    await signUp(author.page, newAccount('shots'));
    for (const viewport of [DESKTOP, PHONE]) {
      const tab = await app.openTab(viewport);
      const connected = liveConnected(tab.page);
      // Hold the script back to see the skeleton (the static shell).
      const release = await gotoWithScriptHeld(tab.page, '/');
      await expectVisible(tab.page.locator('.skeleton-card'));
      await screenshot(tab.page, 'grid-skeleton', { overlay: true });
      await expectAccessible(tab.page, `skeleton ${viewport.width}`);
      release();
      await expectVisible(tab.page.locator('article[data-pin-id]'));
      await connected;
      await screenshot(tab.page, 'grid-home', { overlay: true });
      await expectAccessible(tab.page, `home grid ${viewport.width}`);
      await createPin(author.page, { title: `Shot pin ${viewport.width}`, imageUrl: DRAWING_URL });
      await expectVisible(tab.page.getByRole('button', { name: '1 new pin' }));
      await screenshot(tab.page, 'grid-new-pins-pill', { overlay: true });
      await expectAccessible(tab.page, `new pins pill ${viewport.width}`);
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    }
    await author.context.close();
  });
});
