import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../../scripts/lib/browser.ts';

// The home page's first screen on a slow phone: Chromium emulating 1.6 Mb/s down, 150 ms round
// trips and a CPU 4× slower, at 390 × 844, with nothing cached. First contentful paint from the
// page's paint timing; "first image" when the first picture of the grid has loaded (its load event,
// which comes once the bytes are decoded and it can be drawn).

export const PHONE = { width: 390, height: 844, downKbps: 1600, upKbps: 750, rttMs: 150, cpuSlowdown: 4 };

export interface PhoneLoad {
  fcp: number;
  firstImage: number;
  /** Bytes the page transferred until its first image (compressed, as sent). */
  transferred: number;
  requests: number;
}

export async function phoneLoads(url: string, runs: number): Promise<PhoneLoad[]> {
  const browser = await launchChromium();
  try {
    const loads: PhoneLoad[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: PHONE.width, height: PHONE.height }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: PHONE.rttMs,
        downloadThroughput: (PHONE.downKbps * 1000) / 8,
        uploadThroughput: (PHONE.upKbps * 1000) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
      let transferred = 0;
      let requests = 0;
      cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
        transferred += event.encodedDataLength;
        requests += 1;
      });
      await page.addInitScript(() => {
        const w = window as unknown as { firstImageAt?: number };
        // On the document: a load event never reaches the window unless it is the page's own.
        document.addEventListener(
          'load',
          (event) => {
            const target = event.target;
            if (w.firstImageAt === undefined && target instanceof HTMLImageElement && target.closest('main') && target.naturalWidth > 1) w.firstImageAt = performance.now();
          },
          true,
        );
      });
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { firstImageAt?: number }).firstImageAt !== undefined, undefined, { timeout: 60_000, polling: 100 });
      const timing = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        firstImage: (window as unknown as { firstImageAt: number }).firstImageAt,
      }));
      loads.push({ ...timing, transferred, requests });
      await context.close();
    }
    return loads;
  } finally {
    await browser.close();
  }
}

export interface InitialScripts {
  files: string[];
  bytes: number;
  gzip: number;
}

/** The JavaScript index.html makes a browser fetch before anything runs: entry and module preloads. */
export function initialScripts(distDir: string): InitialScripts {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => (m[1] ?? m[2]) as string);
  let bytes = 0;
  let gzip = 0;
  for (const file of files) {
    const content = readFileSync(path.join(distDir, file));
    bytes += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  return { files, bytes, gzip };
}
