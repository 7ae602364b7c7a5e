import { launchChromium } from '../../scripts/lib/browser.ts';

// Scrolls a home page in Chromium with the mouse wheel, a fixed number of steps of 80 % of the
// viewport, and measures what the main thread spent: long tasks (≥ 50 ms), frames slower than
// 50 ms while scrolling, script / layout / style time (the DevTools Performance metrics), and
// whether the mounted cards were in reading order at every step.

export interface ScrollFigures {
  steps: number;
  pinsSeen: number;
  longTasks: number;
  longTaskMs: number;
  slowFrames: number;
  frames: number;
  p95FrameMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  maxMounted: number;
  /** Steps at which the mounted cards' DOM order differed from the page's reading order. */
  outOfOrder: number;
}

const VIEWPORT = { width: 1280, height: 800 };

async function metrics(cdp: { send: (method: 'Performance.getMetrics') => Promise<{ metrics: Array<{ name: string; value: number }> }> }) {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const get = (name: string) => (list.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { script: get('ScriptDuration'), layout: get('LayoutDuration'), style: get('RecalcStyleDuration') };
}

export async function scrollFigures(baseUrl: string, steps: number): Promise<ScrollFigures> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORT });
    await context.addInitScript(() => {
      const w = window as unknown as { __long: number[]; __frames: number[] };
      w.__long = [];
      w.__frames = [];
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.__long.push(entry.duration))).observe({ type: 'longtask', buffered: true });
      let last = performance.now();
      const tick = (now: number) => {
        w.__frames.push(now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto('/');
    await page.locator('article[data-pin-id]').first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
    await page.waitForTimeout(500);
    // Only the scrolling counts: what loading the page took is left out.
    await page.evaluate(() => {
      const w = window as unknown as { __long: number[]; __frames: number[] };
      w.__long.length = 0;
      w.__frames.length = 0;
    });
    const before = await metrics(cdp);
    const seen = new Set<number>();
    let maxMounted = 0;
    let outOfOrder = 0;
    for (let step = 0; step < steps; step++) {
      await page.mouse.wheel(0, VIEWPORT.height * 0.8);
      await page.waitForTimeout(120);
      const state = await page.evaluate(() => {
        const cells = Array.from(document.querySelectorAll<HTMLElement>('.masonry__items > [role="listitem"]')).filter((c) => c.style.visibility !== 'hidden');
        const places = cells.map((c) => [parseFloat(c.style.top), parseFloat(c.style.left)] as const);
        const sorted = [...places].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        return {
          ids: Array.from(document.querySelectorAll('article[data-pin-id]'), (el) => Number(el.getAttribute('data-pin-id'))),
          ordered: places.every((p, i) => p[0] === sorted[i]?.[0] && p[1] === sorted[i]?.[1]),
        };
      });
      state.ids.forEach((id) => seen.add(id));
      maxMounted = Math.max(maxMounted, state.ids.length);
      if (!state.ordered) outOfOrder += 1;
    }
    const after = await metrics(cdp);
    const { long, frames } = await page.evaluate(() => {
      const w = window as unknown as { __long: number[]; __frames: number[] };
      return { long: [...w.__long], frames: [...w.__frames] };
    });
    const sortedFrames = [...frames].sort((a, b) => a - b);
    return {
      steps,
      pinsSeen: seen.size,
      longTasks: long.length,
      longTaskMs: long.reduce((a, b) => a + b, 0),
      slowFrames: frames.filter((f) => f > 50).length,
      frames: frames.length,
      p95FrameMs: sortedFrames[Math.floor(sortedFrames.length * 0.95)] ?? 0,
      scriptMs: after.script - before.script,
      layoutMs: after.layout - before.layout,
      styleMs: after.style - before.style,
      maxMounted,
      outOfOrder,
    };
  } finally {
    await browser.close();
  }
}
