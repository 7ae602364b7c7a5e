// A new user on a 390 px touch phone and on a 1280 px desktop, in Chromium (docs/grid.md): nothing
// covers a card's image on touch, the keyboard goes through the grid in reading order with one Tab
// stop, the pin page's actions are in a phone's first screen and in one row on a desktop, a save
// started signed out finishes after the login, one toast at a time, and no layout shift.
import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoImageUrl } from '../../db/demo-catalog.ts';
import { DEMO_PINS, seededImages } from '../support/demo.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PHONE, boardPinIds, expectGone, expectPath, expectVisible, newAccount, screenshot, signUp } from './browser.ts';
import { cardsInView, coveredShare, layoutShift, readCells, recordLayoutShifts, uploadPin, gotoWithScriptHeld, homeSeedOf, watchShuffles } from './ux-helpers.ts';

const BULK = 120;

const app = useBrowserServer({ seed: { pins: DEMO_PINS }, redis: true });

beforeAll(async () => {
  const db = app.server.database.db;
  const owner = await db.selectFrom('users').select('id').where('username', '=', 'maya').executeTakeFirstOrThrow();
  const images = sql.raw(
    `array[${seededImages
      .map(demoImageUrl)
      .map((url) => `'${url}'`)
      .join(',')}]`,
  );
  await sql`
    insert into pins (user_id, title, image_url, description, created_at, updated_at)
    select ${owner.id}, 'Bulk pin ' || n, (${images})[1 + n % ${seededImages.length}], '', now() - n * interval '1 minute', now() - n * interval '1 minute'
    from generate_series(1, ${BULK}) as n`.execute(db);
});

async function demo(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in as Demo User' }).click();
  await expectPath(page, '/');
  await expectVisible(page.getByRole('link', { name: 'Favorites' }));
}

describe('1. cards on a touch screen', () => {
  it('390 touch: no control covers any card image, a card under the finger is not dimmed, and "…" opens the save sheet', async () => {
    const tab = await app.openTab(PHONE, { touch: true });
    await demo(tab.page);
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    const ids = (await readCells(tab.page)).slice(0, 8).map((cell) => cell.id);
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(await coveredShare(tab.page, id), `pin ${id}`).toBe(0);
    const first = tab.page.locator(`article[data-pin-id="${ids[0]}"]`);
    await first.locator('.pin-card__media').hover();
    expect(await first.locator('.pin-card__image-link').evaluate((el) => getComputedStyle(el, '::after').backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    expect(await coveredShare(tab.page, ids[0] as number)).toBe(0);
    await first.getByRole('button', { name: /^More for / }).tap();
    const sheet = tab.page.getByRole('dialog', { name: 'Save to board' });
    await expectVisible(sheet.getByRole('button', { name: 'Add to favorites' }));
    console.log('screenshot', await screenshot(tab.page, 'ux-touch-sheet', { overlay: true }));
    await tab.page.keyboard.press('Escape');
    console.log('screenshot', await screenshot(tab.page, 'ux-touch-grid', { overlay: true }));
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('1280: Save and the heart show on hover only; at rest nothing covers the images', async () => {
    const tab = await app.openTab(DESKTOP);
    await signUp(tab.page, newAccount('hover'));
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    await tab.page.mouse.move(1, 1);
    const ids = (await readCells(tab.page)).slice(0, 10).map((cell) => cell.id);
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) expect(await coveredShare(tab.page, id), `pin ${id}`).toBe(0);
    await tab.page.locator(`article[data-pin-id="${ids[0]}"] .pin-card__media`).hover();
    await expect.poll(() => coveredShare(tab.page, ids[0] as number)).toBeGreaterThan(0);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe('2. keyboard and reading order', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`${viewport.width}: mounted cards are in reading order in the DOM; Tab from the bar lands on the first card in view, the grid is one Tab stop, arrows move by column and row`, async () => {
      const tab = await app.openTab(viewport);
      await tab.page.goto('/');
      await expectVisible(tab.page.locator('article[data-pin-id]'));
      await tab.page.evaluate(() => window.scrollTo(0, 1600));
      await tab.page.waitForFunction(() => window.scrollY === 1600 && document.querySelectorAll('article[data-pin-id]').length > 10);
      await tab.page.waitForTimeout(300); // the grid follows the scroll at 12 frames a second
      const cells = await readCells(tab.page);
      expect(cells.map((cell) => cell.dom)).toEqual([...cells].sort((a, b) => a.top - b.top || a.left - b.left).map((cell) => cell.dom));

      // Tab from the logo: the first card in view (below the sticky bar), then out of the grid.
      const expected = (await cardsInView(tab.page))[0];
      await tab.page.locator('.nav__logo').focus();
      const focusedCard = () => tab.page.evaluate(() => Number(document.activeElement?.closest('[data-pin-id]')?.getAttribute('data-pin-id') ?? 0));
      let tabs = 0;
      while ((await focusedCard()) === 0 && tabs < 15) {
        await tab.page.keyboard.press('Tab');
        tabs += 1;
      }
      expect(await focusedCard()).toBe(expected?.id);
      let inside = 0;
      while ((await focusedCard()) === expected?.id) {
        await tab.page.keyboard.press('Tab');
        inside += 1;
        expect(inside).toBeLessThan(8);
      }
      expect(await focusedCard()).toBe(0); // out of the grid: the other cards are not Tab stops
      console.log(`${viewport.width}: ${tabs} Tabs from the logo into the grid, ${inside} through the card and out`);

      // The arrows: Right goes one column right, at the nearest height; Down to the next card below.
      await tab.page.keyboard.press('Shift+Tab');
      const at = async () => {
        const id = await focusedCard();
        return (await readCells(tab.page)).find((cell) => cell.id === id);
      };
      const start = await at();
      // The first card in view may be in the last column (the feed is shuffled): then Left.
      const lastColumn = Math.max(...(await readCells(tab.page)).map((cell) => cell.left));
      const across = start?.left === lastColumn ? 'ArrowLeft' : 'ArrowRight';
      await tab.page.keyboard.press(across);
      const right = await at();
      if (across === 'ArrowRight') expect(right && start && right.left).toBeGreaterThan(start?.left ?? Infinity);
      else expect(right && start && right.left).toBeLessThan(start?.left ?? -Infinity);
      await tab.page.keyboard.press('ArrowDown');
      const down = await at();
      expect(down?.left).toBe(right?.left);
      expect(down && right && down.top).toBeGreaterThan(right?.top ?? Infinity);
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    });
  }
});

describe('3 and 7. the pin page', () => {
  it('390 touch: with a tall image, the title, Add To Board and Add To Favorites are in the first screen; signed out, Save is', async () => {
    const tab = await app.openTab(PHONE, { touch: true });
    await demo(tab.page);
    const pin = await uploadPin(tab.page, { title: 'A tall lighthouse', bytes: await jpeg(900, 2400) });
    await tab.page.goto(`/pins/${pin.id}`);
    const bottom = async (name: string) => (await tab.page.getByRole('button', { name, exact: true }).boundingBox())?.y ?? Infinity;
    await expectVisible(tab.page.getByRole('heading', { name: 'A tall lighthouse' }));
    for (const name of ['Add To Board', 'Add To Favorites']) expect(await bottom(name), name).toBeLessThan(PHONE.height - 44);
    expect((await tab.page.getByRole('heading', { name: 'A tall lighthouse' }).boundingBox())?.y).toBeLessThan(PHONE.height - 40);
    console.log('screenshot', await screenshot(tab.page, 'ux-pin-phone', { overlay: true }));
    const guest = await app.openTab(PHONE, { touch: true });
    await guest.page.goto(`/pins/${pin.id}`);
    await expectVisible(guest.page.getByRole('heading', { name: 'A tall lighthouse' }));
    expect((await guest.page.getByRole('button', { name: 'Save', exact: true }).boundingBox())?.y).toBeLessThan(PHONE.height - 44);
    expect([...tab.errors, ...guest.errors]).toEqual([]);
    await guest.context.close();
    await tab.context.close();
  });

  it('1280: one row of actions, the image within the viewport and no grey slab under it, no viewer line for a reader alone', async () => {
    const tab = await app.openTab(DESKTOP);
    const presence = new Promise<void>((resolve) => tab.page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => String(payload).includes('"presence"') && resolve())));
    await demo(tab.page);
    for (const [title, width, height] of [
      ['A wide harbour', 2400, 900],
      ['A tall tower', 900, 2400],
    ] as const) {
      const pin = await uploadPin(tab.page, { title, bytes: await jpeg(width, height) });
      await tab.page.goto(`/pins/${pin.id}`);
      await expectVisible(tab.page.getByRole('heading', { name: title }));
      const tops = await tab.page.locator('.pin-detail__toolbar > *').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
      expect(new Set(tops).size, `${title}: ${tops.join(',')}`).toBe(1);
      const image = await tab.page.locator('.pin-detail__media .pin-image').boundingBox();
      expect((image?.y ?? 0) + (image?.height ?? Infinity)).toBeLessThanOrEqual(DESKTOP.height);
      // Under the image only its "Open original image" line, on white: no grey box around it.
      const media = await tab.page.locator('.pin-detail__media').boundingBox();
      expect((media?.height ?? 0) - (image?.height ?? 0)).toBeLessThan(80);
      expect(await tab.page.locator('.pin-detail__media').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
      console.log('screenshot', await screenshot(tab.page, `ux-pin-desktop-${width > height ? 'wide' : 'tall'}`));
    }
    await presence;
    expect(await tab.page.getByText(/viewing/).count()).toBe(0);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe('4. a save started signed out finishes after the login', () => {
  it('390 touch: "…" → Log in → back on the same visit of home with the sheet open for that pin; the save goes through', async () => {
    const tab = await app.openTab(PHONE, { touch: true });
    const shuffles = watchShuffles(tab.page);
    const servedSeed = homeSeedOf(await (await tab.page.goto('/'))?.text());
    const card = tab.page.locator('article[data-pin-id]').first();
    await expectVisible(card);
    const pinId = Number(await card.getAttribute('data-pin-id'));
    const title = (await card.locator('.pin-card__title').textContent()) ?? '';
    await card.getByRole('button', { name: /^More for / }).tap();
    const guestSheet = tab.page.getByRole('dialog', { name: 'Save this pin' });
    await expectVisible(guestSheet.getByText('Log in to save pins to your boards.'));
    await guestSheet.getByRole('button', { name: 'Log in' }).tap();
    await expectPath(tab.page, '/login');
    await tab.page.getByRole('button', { name: 'Log in as Demo User' }).tap();
    await expectPath(tab.page, '/');
    const sheet = tab.page.getByRole('dialog', { name: 'Save to board' });
    await expectVisible(sheet.getByText(title, { exact: true }));
    // The same visit: page one came with the HTML and was not asked for again; any later page is of its seed.
    expect(shuffles.filter((s) => s.cursor === null || s.seed !== servedSeed)).toEqual([]);
    await sheet.getByLabel('New board name').fill('After the login');
    const created = tab.page.waitForResponse((r) => r.url().endsWith('/api/boards/') && r.request().method() === 'POST');
    await sheet.getByRole('button', { name: 'Create', exact: true }).tap();
    const board = (await (await created).json()) as { id: number };
    await expectVisible(tab.page.getByRole('status', { name: 'Notifications' }).getByText('Saved to After the login'));
    await expect.poll(() => boardPinIds(tab.page, board.id)).toEqual([pinId]);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('1280: the signed-out pin page offers Save; after the login the same page has the sheet open; the card then reads "Saved"', async () => {
    const tab = await app.openTab(DESKTOP);
    // A pin of a sample author with a handful of pins, so it is on the first screen of their profile.
    const seeded = await Promise.all((app.seeded?.pins ?? []).map(async (p) => (await (await fetch(`${app.url}/api/pins/${p.id}`)).json()) as { id: number; user: { username: string } }));
    const pinId = seeded.find((p) => !['maya', 'demo'].includes(p.user.username))?.id as number;
    await tab.page.goto(`/pins/${pinId}`);
    const entry = await tab.page.evaluate(() => (history.state as { key?: string } | null)?.key);
    await tab.page.getByRole('button', { name: 'Save', exact: true }).click();
    await tab.page.getByRole('dialog', { name: 'Save this pin' }).getByRole('button', { name: 'Log in' }).click();
    await expectPath(tab.page, '/login');
    await tab.page.getByRole('button', { name: 'Log in as Demo User' }).click();
    await expectPath(tab.page, `/pins/${pinId}`);
    expect(await tab.page.evaluate(() => (history.state as { key?: string } | null)?.key)).toBe(entry);
    const sheet = tab.page.getByRole('dialog', { name: 'Save to board' });
    await sheet.getByLabel('New board name').fill('From the pin page');
    await sheet.getByRole('button', { name: 'Create', exact: true }).click();
    await expectGone(sheet);
    // The SPEC's buttons are there for the signed-in reader.
    await expectVisible(tab.page.getByRole('button', { name: 'Add To Favorites' }));
    // A new page load: the card knows the pin is saved from the boards' newest pins.
    await tab.page.goto(`/users/${(await tab.page.locator('.pin-detail__owner a').textContent()) ?? ''}`);
    const card = tab.page.locator(`article[data-pin-id="${pinId}"]`);
    await card.locator('.pin-card__media').hover();
    await expectVisible(card.getByRole('button', { name: /^Saved: / }));
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe('8. toasts', () => {
  it('1280: one toast at a time; the Undo toast comes back when the newer one goes; Ctrl+Z undoes; plain toasts go with the page', async () => {
    const tab = await app.openTab(DESKTOP);
    await signUp(tab.page, newAccount('toasts'));
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    const toaster = tab.page.getByRole('status', { name: 'Notifications' });
    const [first, second] = (await readCells(tab.page)).slice(0, 2).map((cell) => tab.page.locator(`article[data-pin-id="${cell.id}"]`));
    await first?.locator('.pin-card__media').hover();
    await first?.getByRole('button', { name: /^Save / }).click();
    const sheet = tab.page.getByRole('dialog', { name: 'Save to board' });
    await sheet.getByLabel('New board name').fill('Toast board');
    const created = tab.page.waitForResponse((r) => r.url().endsWith('/api/boards/') && r.request().method() === 'POST');
    await sheet.getByRole('button', { name: 'Create', exact: true }).click();
    const board = (await (await created).json()) as { id: number };
    await expectVisible(toaster.getByText('Saved to Toast board'));
    await second?.locator('.pin-card__media').hover();
    await second?.getByRole('button', { name: /^Save / }).click();
    await sheet.getByRole('button', { name: 'Add to favorites' }).click();
    await expectVisible(toaster.getByText(/^Added .* to favorites$/));
    expect(await toaster.locator('.toast').count()).toBe(1);
    await tab.page.keyboard.press('Escape');
    await toaster.getByRole('button', { name: 'Dismiss' }).click();
    await expectVisible(toaster.getByText('Saved to Toast board'));
    expect(await toaster.locator('.toast').count()).toBe(1);
    console.log('screenshot', await screenshot(tab.page, 'ux-toast-undo', { overlay: true }));
    await tab.page.keyboard.press('Control+z');
    await expectVisible(toaster.getByText('Removed from Toast board'));
    await expect.poll(() => boardPinIds(tab.page, board.id)).toEqual([]);
    await tab.page.getByRole('link', { name: 'Boards', exact: true }).click();
    await expectPath(tab.page, '/boards');
    await expectGone(toaster.getByText('Removed from Toast board'));
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  it('390 touch: two actions in a row leave one toast above the bottom edge', async () => {
    const tab = await app.openTab(PHONE, { touch: true });
    await signUp(tab.page, newAccount('phonetoast'));
    await expectVisible(tab.page.locator('article[data-pin-id]'));
    const card = tab.page.locator('article[data-pin-id]').first();
    await card.getByRole('button', { name: /^More for / }).tap();
    const sheet = tab.page.getByRole('dialog', { name: 'Save to board' });
    await sheet.getByRole('button', { name: 'Add to favorites' }).tap();
    await sheet.getByRole('button', { name: 'In your favorites' }).tap();
    const toaster = tab.page.getByRole('status', { name: 'Notifications' });
    await expectVisible(toaster.getByText(/^Removed .* from favorites$/));
    expect(await toaster.locator('.toast').count()).toBe(1);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe('11. smaller things', () => {
  it("the skeleton has the grid's columns at 390 and 1280; the feed says when it has shown everything", async () => {
    for (const [viewport, touch] of [
      [DESKTOP, false],
      [PHONE, true],
    ] as const) {
      const tab = await app.openTab(viewport, { touch });
      const release = await gotoWithScriptHeld(tab.page, '/');
      await expectVisible(tab.page.locator('.skeleton-card'));
      const skeleton = await tab.page
        .locator('.skeleton-grid__column')
        .evaluateAll((els) => els.filter((el) => getComputedStyle(el).display !== 'none').map((el) => Math.round(el.getBoundingClientRect().left)));
      release();
      await expectVisible(tab.page.locator('article[data-pin-id]'));
      const columns = [...new Set((await readCells(tab.page)).map((cell) => cell.left))].sort((a, b) => a - b);
      // The same columns; the grid rounds its column width down to whole pixels, CSS does not.
      expect(skeleton.length, `${viewport.width}: ${skeleton} vs ${columns}`).toBe(columns.length);
      skeleton.forEach((left, i) => expect(Math.abs(left - (columns[i] ?? Infinity)), `${viewport.width}: ${skeleton} vs ${columns}`).toBeLessThanOrEqual(4));
      await tab.page.goto('/users/kai');
      await expectVisible(tab.page.getByText("You've seen all the pins here."));
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    }
  });

  it('1280: after a wrong password the focus is on the password field; very wide images are shown whole, on white', async () => {
    const tab = await app.openTab(DESKTOP);
    await tab.page.goto('/login');
    await tab.page.getByLabel('Email').fill('demo@pinboard.test');
    await tab.page.getByLabel('Password').fill('not the password');
    await tab.page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expectVisible(tab.page.getByRole('alert'));
    await expect.poll(() => tab.page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('password');
    await tab.page.getByRole('button', { name: 'Log in as Demo User' }).click();
    await expectPath(tab.page, '/');
    const pin = await uploadPin(tab.page, { title: 'A panorama', bytes: await jpeg(2400, 300) });
    await tab.page.goto('/pins');
    const image = tab.page.locator(`article[data-pin-id="${pin.id}"] .pin-image`);
    await expectVisible(image.and(tab.page.locator('.pin-image--loaded')));
    expect(await image.locator('img').evaluate((img) => getComputedStyle(img).objectFit)).toBe('contain');
    expect(await image.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(tab.errors.filter((e) => !e.includes('401'))).toEqual([]);
    await tab.context.close();
  });

  it('layout shift 0.000 on home, a pin, boards and profile pages, at 390 and 1280, signed out and in', async () => {
    const pinId = app.seeded?.pins[0]?.id as number;
    for (const [viewport, touch] of [
      [DESKTOP, false],
      [PHONE, true],
    ] as const) {
      const tab = await app.openTab(viewport, { touch });
      await recordLayoutShifts(tab.context);
      // Signed out first: the guest links appear after the session check (they moved the bar once).
      for (const path of ['/', `/pins/${pinId}`, '/users/maya']) {
        await tab.page.goto(path);
        await expectVisible(tab.page.locator('main h1, main [data-pin-id]'));
        await tab.page.waitForLoadState('networkidle');
        const shift = await layoutShift(tab.page);
        console.log(`${viewport.width} signed out ${path}: layout shift ${shift.total.toFixed(4)}`);
        expect(shift.total, `${viewport.width} signed out ${path}: ${shift.sources.join('; ')}`).toBeLessThan(0.0005);
      }
      await demo(tab.page);
      for (const path of ['/', `/pins/${pinId}`, '/boards', '/users/maya', '/pins']) {
        await tab.page.goto(path);
        await expectVisible(tab.page.locator('main h1, main [data-pin-id]'));
        await tab.page.waitForLoadState('networkidle');
        const shift = await layoutShift(tab.page);
        console.log(`${viewport.width} ${path}: layout shift ${shift.total.toFixed(4)}`);
        expect(shift.total, `${viewport.width} ${path}: ${shift.sources.join('; ')}`).toBeLessThan(0.0005);
      }
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    }
  });
});
