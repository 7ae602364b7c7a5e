// Finding pins in Chromium (docs/search.md): the bar's search box as a reader uses it (typing, the
// keyboard, the results page, a pin and Back to the same card), tags that lead to their pins, "More
// like this" scrolling on, live changes on an open results page, and the phone's search button.
// Screenshots at 390 and 1440 px go to artifacts/screenshots/. Timings are never asserted.
import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoImageUrl } from '../../db/demo-catalog.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { DEMO_PINS, seededImages } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { expectAccessible, expectGone, expectPath, expectVisible, newAccount, PHONE, screenshot, signUp } from './browser.ts';

const DESKTOP_WIDE = { width: 1440, height: 900 } as const;
/** Harbour pins: enough for several pages of results and of "More like this". */
const HARBOUR = 240;
const IMAGES = seededImages.map(demoImageUrl);

let owner: ApiClient;

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

beforeAll(async () => {
  const signedUp = await signUpUser(app.url, 'harbourmaster');
  owner = signedUp.client;
  const images = sql.raw(`array[${IMAGES.map((url) => `'${url}'`).join(',')}]`);
  // Written as the server writes pins: the tags are the description's, and the triggers file them.
  await sql`
    insert into pins (user_id, title, image_url, description, tags)
    select ${signedUp.user.id}, 'Harbour at dusk no. ' || n, (${images})[1 + n % ${IMAGES.length}],
      'Boats coming in past the lighthouse #harbour #boats', array['harbour', 'boats']
    from generate_series(1, ${HARBOUR}) as n`.execute(app.server.database.db);
});

const box = (page: Page) => page.getByRole('combobox', { name: 'Search pins' });
const cards = (page: Page) => page.locator('article[data-pin-id]');

/** The id of the card nearest the viewport's centre. */
function centreCard(page: Page): Promise<number> {
  return page.evaluate(() => {
    let best = { id: 0, distance: Infinity };
    for (const card of Array.from(document.querySelectorAll<HTMLElement>('.masonry article[data-pin-id]'))) {
      const box = card.getBoundingClientRect();
      const distance = Math.hypot(box.left + box.width / 2 - window.innerWidth / 2, box.top + box.height / 2 - window.innerHeight / 2);
      if (distance < best.distance) best = { id: Number(card.dataset.pinId), distance };
    }
    return best.id;
  });
}

/** The centre card once the grid has stopped loading and moving (two reads a frame apart agree). */
async function settledCentreCard(page: Page): Promise<number> {
  await expectGone(page.getByText('Loading more pins...'));
  let last = -1;
  await expect
    .poll(async () => {
      const now = await centreCard(page);
      const same = now === last;
      last = now;
      return same;
    })
    .toBe(true);
  return last;
}

async function scrollTo(page: Page, y: number): Promise<void> {
  await page.waitForFunction((top) => (window.scrollTo(0, top), Math.abs(window.scrollY - top) < 2), y, { polling: 250, timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('.masonry article[data-pin-id]').length > 0);
}

describe('search in the bar', () => {
  it('1440: type, pick with the keyboard, land on the results, open a pin, Back to the same card', async () => {
    const { page, errors } = await app.openTab(DESKTOP_WIDE);
    await page.goto('/');
    await expectVisible(cards(page));
    await box(page).click();
    await box(page).pressSequentially('harb');
    const list = page.getByRole('listbox', { name: 'Search suggestions' });
    await expectVisible(list.getByRole('option', { name: /#harbour/ }));
    await expectVisible(list.getByRole('group', { name: 'Pins' }).getByRole('option').first());
    await expectAccessible(page, 'the open search box');
    await screenshot(page, 'search-typeahead', { overlay: true });

    await box(page).press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.getElementById(document.activeElement?.getAttribute('aria-activedescendant') ?? '')?.textContent)).toContain('Search for “harb”');
    await box(page).press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'harb');
    await expectVisible(page.getByRole('heading', { name: 'Results for “harb”' }));
    await expectVisible(cards(page));
    expect(await box(page).inputValue()).toBe('harb');
    await expectAccessible(page, 'the results page');
    await screenshot(page, 'search-results');

    // Down the results (more pages load), then a pin and Back.
    await scrollTo(page, 3000);
    await expect.poll(() => cards(page).count()).toBeGreaterThan(10);
    const centre = await settledCentreCard(page);
    expect(centre).toBeGreaterThan(0);
    await page.locator(`article[data-pin-id="${centre}"] .pin-card__title`).click();
    await expectPath(page, `/pins/${centre}`);
    await expectVisible(page.getByRole('heading', { level: 1 }));
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'harb');
    await expectVisible(page.locator(`article[data-pin-id="${centre}"]`));
    await expect.poll(() => centreCard(page)).toBe(centre);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('1440: nothing found says so, with a way back; the address alone gives the same results', async () => {
    const { page, errors } = await app.openTab(DESKTOP_WIDE);
    await page.goto('/search?q=zzyzx%20quux');
    await expectVisible(page.getByText('No pins match “zzyzx quux”.'));
    await screenshot(page, 'search-empty');
    await page.getByRole('link', { name: 'Back to all pins' }).click();
    await expectPath(page, '/');
    await page.goto('/search?q=%22at%20dusk%22%20-lighthouse');
    await expectVisible(page.getByText('No pins match “"at dusk" -lighthouse”.'));
    await page.goto('/search?q=%22at%20dusk%22');
    await expectVisible(cards(page));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('an open results page takes edits and deletions live, like the home grid', async () => {
    const created = await owner.post<Pin>('/api/pins/', { title: 'Pelican on a post', imageUrl: IMAGES[0], description: '#birds' });
    const { page, errors } = await app.openTab(DESKTOP_WIDE);
    await page.goto('/search?q=pelican');
    const card = page.locator(`article[data-pin-id="${created.body.id}"]`);
    await expectVisible(card.getByText('Pelican on a post'));
    expect((await owner.put(`/api/pins/${created.body.id}`, { title: 'Pelican, drying its wings', description: '#birds' })).status).toBe(200);
    await expectVisible(card.getByText('Pelican, drying its wings'));
    expect((await owner.delete(`/api/pins/${created.body.id}`)).status).toBe(200);
    await expectGone(card);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('tags and "More like this"', () => {
  it('1440: a #tag in a description opens the tag\'s pins; "More like this" scrolls on and Back returns to its card', async () => {
    const { page, errors } = await app.openTab(DESKTOP_WIDE);
    const [pin] = (await owner.get<{ pins: Pin[] }>('/api/search?q=harbour&limit=1')).body.pins;
    let nextPage = false;
    page.on('response', (r) => {
      if (r.url().includes('/related') && r.url().includes('cursor=') && r.ok()) nextPage = true;
    });
    await page.goto(`/pins/${pin?.id}`);
    const more = page.getByRole('region', { name: 'More like this' });
    await expectVisible(more.locator('article[data-pin-id]'));
    await screenshot(page, 'search-more-like-this');

    // Scrolling on loads the next page (the grid mounts only the cards near the screen).
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          return nextPage;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await scrollTo(page, (await page.evaluate(() => window.scrollY)) - 400);
    const centre = await settledCentreCard(page);
    expect(centre).not.toBe(pin?.id);
    await page.locator(`article[data-pin-id="${centre}"] .pin-card__title`).click();
    await expectPath(page, `/pins/${centre}`);
    await page.goBack();
    await expectPath(page, `/pins/${pin?.id}`);
    await expect.poll(() => centreCard(page)).toBe(centre);

    // The tag link.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.pin-detail__description').getByRole('link', { name: '#harbour' }).click();
    await expectPath(page, '/tags/harbour');
    await expectVisible(page.getByRole('heading', { name: '#harbour' }));
    await expectVisible(cards(page));
    await screenshot(page, 'search-tag-page');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the bar, signed in', () => {
  it('the box keeps a usable width beside the links at every width, and nothing scrolls sideways', async () => {
    const { page, errors } = await app.openTab(DESKTOP_WIDE);
    await signUp(page, newAccount('searchbar'));
    for (const width of [1440, 1024, 800, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/search?q=harbour');
      await expectVisible(cards(page));
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}`).toBeLessThanOrEqual(width);
      // Wide screens show the box; narrower ones a button that opens it over the bar.
      if (width > 1000) expect((await box(page).boundingBox())?.width ?? 0, `${width}`).toBeGreaterThanOrEqual(200);
      else await expectVisible(page.getByRole('button', { name: 'Search', exact: true }));
      await screenshot(page, `search-bar-signed-in-${width}`, { overlay: true });
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('phones', () => {
  it('390: the search button opens the box over the bar; suggestions, results, a tag page', async () => {
    const { page, errors } = await app.openTab(PHONE, { touch: true });
    await page.goto('/');
    await expectVisible(cards(page));
    await expect.poll(() => box(page).isVisible()).toBe(false);
    // The bar with its search button still fits the phone (nothing scrolls sideways).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expectVisible(box(page));
    await box(page).pressSequentially('harbour');
    await expectVisible(page.getByRole('option', { name: /#harbour/ }));
    await screenshot(page, 'search-typeahead', { overlay: true });
    await page.getByRole('option', { name: /#harbour/ }).click();
    await expectPath(page, '/tags/harbour');
    await expectVisible(cards(page));
    await expect.poll(() => box(page).isVisible()).toBe(false);
    await screenshot(page, 'search-tag-page');
    await page.goto('/search?q=harbour');
    await expectVisible(cards(page));
    await screenshot(page, 'search-results');
    await page.goto('/search?q=zzyzx');
    await expectVisible(page.getByText('No pins match “zzyzx”.'));
    await screenshot(page, 'search-empty');
    const [pin] = (await owner.get<{ pins: Pin[] }>('/api/search?q=harbour&limit=1')).body.pins;
    await page.goto(`/pins/${pin?.id}`);
    await expectVisible(page.getByRole('region', { name: 'More like this' }).locator('article[data-pin-id]'));
    await screenshot(page, 'search-more-like-this');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
