// Measurements the phone-and-keyboard browser tests share: the cards of a grid and their boxes,
// the share of a card's image covered by controls, layout shifts, the home feed's shuffle requests,
// and pins made from uploaded files.
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Pin } from '../../contract/pins.ts';

export interface Cell {
  id: number;
  /** Its place among the mounted cells in the DOM. */
  dom: number;
  /** Page coordinates (document), rounded. */
  top: number;
  left: number;
  bottom: number;
}

/** The laid-out cards of the grid on the page (hidden ones being measured left out). */
export function readCells(page: Page): Promise<Cell[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.masonry__items > [role="listitem"]'))
      .map((cell, dom) => ({ cell, dom }))
      .filter(({ cell }) => cell.style.visibility !== 'hidden' && cell.querySelector('[data-pin-id]'))
      .map(({ cell, dom }) => {
        const box = cell.getBoundingClientRect();
        return {
          id: Number(cell.querySelector('[data-pin-id]')?.getAttribute('data-pin-id')),
          dom,
          top: Math.round(box.top + window.scrollY),
          left: Math.round(box.left),
          bottom: Math.round(box.bottom + window.scrollY),
        };
      }),
  );
}

/** The cards whose top is in view below the sticky bar, in reading order. */
export async function cardsInView(page: Page): Promise<Cell[]> {
  const { scrollY, bar, height } = await page.evaluate(() => ({
    scrollY: window.scrollY,
    bar: document.querySelector('header.nav')?.getBoundingClientRect().bottom ?? 0,
    height: window.innerHeight,
  }));
  return (await readCells(page)).filter((cell) => cell.top >= scrollY + bar && cell.top < scrollY + height).sort((a, b) => a.top - b.top || a.left - b.left);
}

/**
 * The share (0–1) of a card's image box covered by the controls drawn over it: links and buttons
 * other than the image's own link that are displayed, visible and not fully transparent.
 */
export function coveredShare(page: Page, pinId: number): Promise<number> {
  return page.evaluate((id) => {
    const card = document.querySelector(`article[data-pin-id="${id}"]`);
    const image = card?.querySelector('.pin-image')?.getBoundingClientRect();
    if (!card || !image || image.width === 0) return -1;
    const opacity = (el: Element | null): number => {
      let value = 1;
      for (let node = el; node && node !== card; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
      return value;
    };
    let covered = 0;
    for (const control of Array.from(card.querySelectorAll('a, button'))) {
      if (control.classList.contains('pin-card__image-link')) continue;
      const style = getComputedStyle(control);
      if (style.display === 'none' || style.visibility !== 'visible' || opacity(control) === 0) continue;
      const box = control.getBoundingClientRect();
      const w = Math.max(0, Math.min(box.right, image.right) - Math.max(box.left, image.left));
      const h = Math.max(0, Math.min(box.bottom, image.bottom) - Math.max(box.top, image.top));
      covered += w * h;
    }
    return covered / (image.width * image.height);
  }, pinId);
}

/** Records every layout shift of the context's pages (PerformanceObserver 'layout-shift', buffered). */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shifts: Array<{ value: number; input: boolean; sources: string[] }> = [];
    (window as unknown as { __layoutShifts: typeof shifts }).__layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> }>) {
        shifts.push({
          value: entry.value,
          input: entry.hadRecentInput,
          sources: (entry.sources ?? []).map((s) => (s.node instanceof Element ? s.node.className || s.node.tagName : String(s.node?.nodeName))),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The page's layout shift since it loaded (shifts right after input excluded, as CLS does). */
export async function layoutShift(page: Page): Promise<{ total: number; sources: string[] }> {
  // Let the browser report what the last frames did.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100)))));
  return page.evaluate(() => {
    const shifts = (window as unknown as { __layoutShifts?: Array<{ value: number; input: boolean; sources: string[] }> }).__layoutShifts ?? [];
    const counted = shifts.filter((shift) => !shift.input);
    return { total: counted.reduce((sum, shift) => sum + shift.value, 0), sources: counted.flatMap((shift) => shift.sources) };
  });
}

/** The home feed's shuffle requests of a page: their seed and cursor. */
export function watchShuffles(page: Page): Array<{ seed: string | null; cursor: string | null }> {
  const seen: Array<{ seed: string | null; cursor: string | null }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/pins/' && url.searchParams.get('order') === 'shuffle') seen.push({ seed: url.searchParams.get('seed'), cursor: url.searchParams.get('cursor') });
  });
  return seen;
}

/**
 * Opens `path` with the client's entry script held back until the returned function is called:
 * until then the page shows the static shell of its HTML (the navigation bar and the grid
 * skeleton), as a slow phone does. The home page's first page of pins comes with the HTML, so
 * holding its request would not show it. Waits for the HTML only: "load" waits for the script.
 */
export async function gotoWithScriptHeld(page: Page, path: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(path, { waitUntil: 'commit' });
  return release;
}

/** The shuffle seed a home page's HTML was served with (its <meta name="pinboard-home-seed">). */
export function homeSeedOf(html: string | undefined): string {
  const seed = /<meta name="pinboard-home-seed" content="([0-9]+)">/.exec(html ?? '')?.[1];
  if (!seed) throw new Error('the home page came without its seed');
  return seed;
}

/** The page's anti-forgery token (its cookie), for API calls made with its session. */
export async function xsrf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
}

/** A pin of the page's signed-in user made from an uploaded file (so it has its image at once). */
export async function uploadPin(page: Page, { title, bytes }: { title: string; bytes: Buffer }): Promise<Pin> {
  const headers = { 'X-XSRF-TOKEN': await xsrf(page) };
  const uploaded = await page.request.post('/api/images/', { multipart: { file: { name: 'image.jpg', mimeType: 'image/jpeg', buffer: bytes } }, headers });
  expect(uploaded.status()).toBe(201);
  const { image } = (await uploaded.json()) as { image: { url: string } };
  const created = await page.request.post('/api/pins/', { data: { title, imageUrl: image.url, description: '' }, headers });
  expect(created.status()).toBe(201);
  return (await created.json()) as Pin;
}

export interface TapTarget {
  /** The element's tag, classes and text, to say which one it is. */
  what: string;
  width: number;
  height: number;
  /** A link inside a run of text (a #tag in a description): its size is the line's. */
  inText: boolean;
}

/**
 * The tap targets of the page smaller than 44 × 44 CSS px: every displayed link, button, field and
 * focusable control (a radio or checkbox inside its label counts as the label), hidden ones and
 * the 1 px visually-hidden ones left out, in and out of the viewport.
 */
export function smallTapTargets(page: Page): Promise<TapTarget[]> {
  return page.evaluate(() => {
    const MIN = 44;
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="option"], [role="tab"], [tabindex]:not([tabindex="-1"])';
    const shown = (el: Element): boolean => {
      for (let node: Element | null = el; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return false;
      }
      return true;
    };
    const out: TapTarget[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (!shown(el)) continue;
      const target = el instanceof HTMLInputElement && /^(radio|checkbox)$/.test(el.type) ? (el.closest('label') ?? el) : el;
      const box = target.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue; // visually hidden (a skip target, a label's text)
      if (box.width >= MIN - 0.5 && box.height >= MIN - 0.5) continue;
      const parent = target.parentElement;
      const inText =
        getComputedStyle(target).display === 'inline' && !!parent && Array.from(parent.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim().length > 0);
      const text = (target.textContent ?? '').trim().slice(0, 30) || target.getAttribute('aria-label') || '';
      out.push({ what: `${target.tagName.toLowerCase()}.${String(target.className).split(' ').join('.')} "${text}"`, width: Math.round(box.width), height: Math.round(box.height), inText });
    }
    return out;
  });
}
