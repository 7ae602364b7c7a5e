import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/lib/browser.ts';

// Scrolls the home page in Chromium as a visitor would (mouse wheel, a viewport at a time) until
// `target` distinct pins have been on screen, and samples every `every` pins the cards mounted in
// the page and the JS heap after a forced garbage collection. It never fails: when the page stops
// offering more pins, or the time is up, it reports how far it got.

export interface ScrollSample {
  /** Distinct pins that have been mounted so far. */
  seen: number;
  /** Pins received from the API so far (list answers). */
  loaded: number;
  mounted: number;
  domNodes: number;
  /** Bytes, after a forced GC. */
  heap: number;
  seconds: number;
}

export interface ScrollResult {
  samples: ScrollSample[];
  target: number;
  /** Why the scroll ended. */
  ended: 'target reached' | 'no more pins' | 'time limit' | 'no pin appeared';
}

export interface ScrollOptions {
  target: number;
  every: number;
  seconds: number;
  /** Seconds without a new pin before the page is taken to offer no more. */
  stallSeconds: number;
}

const VIEWPORT = { width: 1280, height: 800 };

export async function scrollHome(baseUrl: string, options: ScrollOptions): Promise<ScrollResult> {
  const browser: Browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORT });
    const page = await context.newPage();
    const loadedIds = new Set<number>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname !== '/api/pins/' || response.status() !== 200) return;
      response
        .json()
        .then((body: { pins?: Array<{ id: number }> }) => body.pins?.forEach((pin) => loadedIds.add(pin.id)))
        .catch(() => undefined);
    });
    const cdp = await context.newCDPSession(page);
    const started = performance.now();
    const seen = new Set<number>();
    const samples: ScrollSample[] = [];

    const sample = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = await cdp.send('Runtime.getHeapUsage');
      const dom = await page.evaluate(() => ({
        mounted: document.querySelectorAll('article[data-pin-id]').length,
        nodes: document.getElementsByTagName('*').length,
      }));
      samples.push({ seen: seen.size, loaded: loadedIds.size, mounted: dom.mounted, domNodes: dom.nodes, heap: heap.usedSize, seconds: (performance.now() - started) / 1000 });
    };

    await page.goto('/');
    try {
      await page.locator('article[data-pin-id]').first().waitFor({ state: 'visible', timeout: 30_000 });
    } catch {
      await sample();
      return { samples, target: options.target, ended: 'no pin appeared' };
    }
    await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
    await collect(page, seen);
    await sample();

    let nextSample = options.every;
    let lastNew = performance.now();
    let ended: ScrollResult['ended'] = 'time limit';
    while ((performance.now() - started) / 1000 < options.seconds) {
      const before = seen.size;
      await page.mouse.wheel(0, VIEWPORT.height * 0.8);
      await page.waitForTimeout(120);
      await collect(page, seen);
      if (seen.size > before) lastNew = performance.now();
      if (seen.size >= nextSample && nextSample <= options.target) {
        await sample();
        while (nextSample <= seen.size) nextSample += options.every;
      }
      if (seen.size >= options.target) {
        ended = 'target reached';
        break;
      }
      if ((performance.now() - lastNew) / 1000 > options.stallSeconds) {
        ended = 'no more pins';
        break;
      }
    }
    if (samples.at(-1)?.seen !== seen.size) await sample();
    return { samples, target: options.target, ended };
  } finally {
    await browser.close();
  }
}

async function collect(page: Page, seen: Set<number>): Promise<void> {
  const ids = await page.evaluate(() => Array.from(document.querySelectorAll('article[data-pin-id]'), (el) => Number(el.getAttribute('data-pin-id'))));
  for (const id of ids) seen.add(id);
}
