// Searching by colour in Chromium (docs/search.md): the type-ahead offers colours (a swatch and a
// name) and choosing one searches with color:NAME; the results page's colour chips toggle color= in
// the address; the scope selector; 44 px targets on a phone. Screenshots at 390x844 and 1280x800 go
// to artifacts/screenshots/. Timings are never asserted.
import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PINS } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectPath, expectVisible, newAccount, PHONE, screenshot, signUp } from './browser.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

beforeAll(async () => {
  // What processing would have seen in the demo pictures: half blue and white, half red and orange.
  // The test server does not run the seeded pictures through the image pipeline (their pins show
  // the demo files as they are, with no images row), so the pins' copies are written directly.
  await sql`
    update pins set colors = case when ranked.n % 2 = 0 then '{blue,white}'::text[] else '{red,orange}'::text[] end
    from (select id, row_number() over (order by id) as n from pins) as ranked
    where ranked.id = pins.id`.execute(app.server.database.db);
});

const box = (page: Page) => page.getByRole('combobox', { name: 'Search pins' });
const cards = (page: Page) => page.locator('article[data-pin-id]');
const chips = (page: Page) => page.getByRole('group', { name: 'Colors' });

/** The colours of the pins on the page, read from the API (what the grid shows is what it answered). */
async function colorsOfCards(page: Page): Promise<string[][]> {
  const ids = await cards(page).evaluateAll((nodes) => nodes.map((node) => Number((node as HTMLElement).dataset.pinId)));
  const { rows } = await sql<{ colors: string[] }>`select colors from pins where id = any(${ids}::int[])`.execute(app.server.database.db);
  return rows.map((row) => row.colors);
}

describe('colours', () => {
  it('1280: the type-ahead offers colours; choosing one with the keyboard searches for it; chips add and remove colours', async () => {
    const { page, errors } = await app.openTab(DESKTOP);
    await page.goto('/');
    await expectVisible(cards(page));
    await box(page).click();
    await box(page).pressSequentially('bl');
    const group = page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('group', { name: 'Colors' });
    await expectVisible(group.getByRole('option', { name: /Blue/ }));
    await expectVisible(group.getByRole('option', { name: /Black/ }));
    await screenshot(page, 'search-colors-typeahead', { overlay: true });
    // Down to Blue (after "Search for", and Black).
    const options = await page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option').allTextContents();
    const blue = options.findIndex((text) => text.startsWith('Blue'));
    for (let i = 0; i <= blue; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expectPath(page, '/search');
    expect(new URL(page.url()).searchParams.get('q')).toBe('color:blue');
    await expectVisible(cards(page).first());
    await expect.poll(async () => (await colorsOfCards(page)).length).toBeGreaterThan(0);
    for (const colors of await colorsOfCards(page)) expect(colors).toContain('blue');

    // The chips: Red too finds nothing here (no picture is both); pressed again, blue ones return.
    const red = chips(page).getByRole('button', { name: 'Red' });
    await red.click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('color')).toEqual(['red']);
    await expectVisible(page.getByText(/No pins match/));
    await expect.poll(() => red.getAttribute('aria-pressed')).toBe('true');
    await red.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('color')).toEqual([]);
    await expectVisible(cards(page).first());

    // A colour alone: its pins, newest first.
    await chips(page).getByRole('button', { name: 'Orange' }).click();
    await page.goto('/search?color=orange');
    await expectVisible(page.getByRole('heading', { name: 'Pins in orange' }));
    await expectVisible(cards(page).first());
    for (const colors of await colorsOfCards(page)) expect(colors).toContain('orange');
    await screenshot(page, 'search-colors-results');
    await expectAccessible(page, 'colour results, 1280');
    expect(errors).toEqual([]);
  });

  it('390: chips are 44 px targets, the filters fit the phone, and the scope is in the address', async () => {
    const { page, errors } = await app.openTab(PHONE, { touch: true });
    await signUp(page, newAccount('colours'));
    await page.goto('/search?color=blue');
    await expectVisible(cards(page).first());
    for (const chip of await chips(page).getByRole('button').all()) {
      const size = await chip.boundingBox();
      expect(size?.width).toBeGreaterThanOrEqual(44);
      expect(size?.height).toBeGreaterThanOrEqual(44);
    }
    const scope = page.getByRole('combobox', { name: 'Search in' });
    expect((await scope.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    // Nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'search-colors-phone');
    await scope.selectOption({ label: 'Your pins' });
    await expect.poll(() => new URL(page.url()).searchParams.get('scope')).toBe('mine');
    await expectVisible(page.getByText(/No pins match/));
    await expectAccessible(page, 'colour results, 390');
    expect(errors).toEqual([]);
  });
});
