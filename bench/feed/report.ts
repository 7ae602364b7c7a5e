import { LIMITS } from '../../contract/limits.ts';
import type { PinList } from '../../contract/pins.ts';
import { TAG_LIMITS } from '../../contract/tag-rules.ts';
import type { ScrollResult, ScrollSample } from './browser.ts';
import { percentile } from './load.ts';
import type { FeedFigures, PageSize, ScenarioName } from './scenarios.ts';
import { SEARCH_READS } from './search-report.ts';
import type { SeedResult } from './seed.ts';

// Formats what bench/feed.ts measured: one table per database, the page sizes, the scroll samples,
// and one verdict line per target of the issue. Printing only; nothing here fails a run.

export const TARGETS = { pageVsSingle: 3, pageBytes: 60 * 1024, mountedGrowth: 1.25, heapGrowth: 1.5 } as const;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const pad = (text: string, width: number) => text.padEnd(width);
const padStart = (text: string, width: number) => text.padStart(width);

export function seedLine(kind: string, seed: SeedResult): string {
  const steps = seed.steps.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ');
  const check = seed.mismatched === 0 ? `likes_count = favorites rows for all ${int(seed.checked)} sampled pins` : `likes_count WRONG for ${int(seed.mismatched)} of ${int(seed.checked)} sampled pins`;
  return `${kind}: ${int(seed.pins)} pins, ${int(seed.users)} users, ${int(seed.favorites)} favorites, ${int(seed.comments)} comments in ${seed.seconds.toFixed(1)} s (${steps}); ${check}`;
}

export interface Ratio {
  name: ScenarioName;
  label: string;
  p50: number;
  p99: number;
}

/** Each page's p50 and p99 as a multiple of the single-pin read's. */
export function ratios(figures: FeedFigures): Ratio[] {
  const single = figures.scenarios.find((s) => s.name === 'single');
  if (!single) return [];
  const base50 = percentile(single.measured.latencies, 50);
  const base99 = percentile(single.measured.latencies, 99);
  return figures.scenarios
    .filter((s) => s.name !== 'single')
    .map((s) => ({ name: s.name, label: s.label, p50: percentile(s.measured.latencies, 50) / base50, p99: percentile(s.measured.latencies, 99) / base99 }));
}

export function readsTable(title: string, figures: FeedFigures): string[] {
  const byLabel = new Map(ratios(figures).map((r) => [r.label, r]));
  const width = Math.max(...figures.scenarios.map((s) => s.label.length)) + 2;
  const lines = [title, `  ${pad('', width)}${padStart('p50 ms', 9)}${padStart('p99 ms', 9)}${padStart('req/s', 8)}${padStart('×p50', 7)}${padStart('×p99', 7)}${padStart('errors', 8)}`];
  for (const s of figures.scenarios) {
    const { latencies, seconds, errors } = s.measured;
    const ratio = byLabel.get(s.label);
    lines.push(
      `  ${pad(s.label, width)}${padStart(ms(percentile(latencies, 50)), 9)}${padStart(ms(percentile(latencies, 99)), 9)}${padStart(int(latencies.length / seconds), 8)}` +
        `${padStart(ratio ? ratio.p50.toFixed(2) : '1', 7)}${padStart(ratio ? ratio.p99.toFixed(2) : '1', 7)}${padStart(String(errors), 8)}`,
    );
  }
  const { newest, shuffle } = figures.walks;
  lines.push(
    `  walks to the deep pages: newest ${newest.pages} pages, ${int(newest.distinct)} distinct of ${int(newest.pins)} pins, ${newest.seconds.toFixed(1)} s; ` +
      `shuffle ${shuffle.pages} pages, ${int(shuffle.distinct)} distinct of ${int(shuffle.pins)} pins, ${shuffle.seconds.toFixed(1)} s`,
  );
  const size = (name: string, page: PageSize) => `${name} (${page.pins} pins) ${kb(page.raw)} JSON, ${kb(page.gzip)} gzip, ${kb(page.br)} br`;
  lines.push(`  page size: ${size('newest page 1', figures.newestSize)}; ${size('shuffle page 1', figures.shuffleSize)}; a single pin ${int(figures.singleSize)} B`);
  return lines;
}

export function scrollTable(scroll: ScrollResult): string[] {
  const lines = [
    `Chromium, home page, scrolling to ${int(scroll.target)} pins (ended: ${scroll.ended})`,
    `  ${padStart('pins seen', 10)}${padStart('loaded', 8)}${padStart('mounted', 9)}${padStart('DOM nodes', 11)}${padStart('JS heap', 10)}${padStart('s', 7)}`,
  ];
  for (const s of scroll.samples) {
    lines.push(
      `  ${padStart(int(s.seen), 10)}${padStart(int(s.loaded), 8)}${padStart(int(s.mounted), 9)}${padStart(int(s.domNodes), 11)}${padStart(`${(s.heap / 2 ** 20).toFixed(1)} MB`, 10)}${padStart(s.seconds.toFixed(1), 7)}`,
    );
  }
  return lines;
}

const verdict = (met: boolean, text: string) => `  [${met ? 'met' : 'NOT met'}] ${text}`;

/**
 * The bytes of the largest page the input limits allow: every text field at its longest (in ASCII;
 * other scripts take up to 3 bytes a character), ids and counts at their widest.
 */
export function largestAllowedPage(pins: number): number {
  const now = new Date().toISOString();
  const pin = {
    id: LIMITS.maxId,
    title: 't'.repeat(LIMITS.title),
    image_url: `https://example.com/${'i'.repeat(LIMITS.imageUrl - 20)}`,
    description: 'd'.repeat(LIMITS.description),
    // The description holds at most TAG_LIMITS.perPin tags, each at its longest.
    tags: Array.from({ length: TAG_LIMITS.perPin }, (_, i) => `${i}`.padEnd(TAG_LIMITS.length, 't')),
    user_id: LIMITS.maxId,
    user: { id: LIMITS.maxId, username: 'u'.repeat(LIMITS.usernameMax) },
    likes_count: LIMITS.maxId,
    image: {
      width: LIMITS.maxId,
      height: LIMITS.maxId,
      placeholder: 'p'.repeat(40),
      thumbnails: { '236': `/media/ab/${'a'.repeat(64)}-236.webp`, '736': `/media/ab/${'a'.repeat(64)}-736.webp` },
      colors: ['blue' as const, 'white' as const, 'grey' as const],
      palette: Array.from({ length: 5 }, () => ({ hex: '#aabbcc', share: 0.2 })),
      // Most pins have no text in their picture; a page's worst case is a poster's.
      text: 'w'.repeat(LIMITS.imageText),
    },
    created_at: now,
    updated_at: now,
    source_url: null,
    visibility: 'private' as const,
    alt_text: 'a'.repeat(LIMITS.altText),
  };
  const page: PinList = { pins: Array.from({ length: pins }, () => pin), nextCursor: 'c'.repeat(120) };
  return Buffer.byteLength(JSON.stringify(page));
}

export function pageVerdicts(scale: string, figures: FeedFigures): string[] {
  // The list pages; search reads have targets of their own (./search-report.ts).
  const all = ratios(figures).filter((r) => !SEARCH_READS.includes(r.name));
  const worst50 = all.reduce((a, b) => (b.p50 > a.p50 ? b : a));
  const worst99 = all.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const page = figures.newestSize;
  const biggest = Math.max(page.raw, figures.shuffleSize.raw);
  return [
    verdict(
      worst50.p50 <= TARGETS.pageVsSingle,
      `${scale}: a page costs ≤ ${TARGETS.pageVsSingle}× a single-pin read (p50): worst ${worst50.label} at ${worst50.p50.toFixed(2)}× (at p99 the worst is ${worst99.label}, ${worst99.p99.toFixed(2)}×)`,
    ),
    verdict(
      biggest <= TARGETS.pageBytes,
      `a ${page.pins}-pin page ≤ ${kb(TARGETS.pageBytes)}: ${kb(biggest)} of JSON at most (${kb(page.gzip)} gzip, ${kb(page.br)} br on the wire); ` +
        `with every field at its length limit a page would be ${kb(largestAllowedPage(page.pins))}`,
    ),
  ];
}

export function scrollVerdicts(scroll: ScrollResult, every: number): string[] {
  const first = scroll.samples.find((s) => s.seen >= every) ?? scroll.samples[0];
  const last = scroll.samples.at(-1);
  if (!first || !last) return [verdict(false, 'scrolling: no sample taken')];
  const reached = last.seen >= scroll.target;
  const short = reached ? '' : ` — reached only ${int(last.seen)} of ${int(scroll.target)} pins (${scroll.ended})`;
  const from = (s: ScrollSample) => `at ${int(s.seen)} pins`;
  const perThousand = last.seen > first.seen ? ((last.heap - first.heap) / (last.seen - first.seen)) * 1000 : NaN;
  return [
    verdict(
      reached && last.mounted <= first.mounted * TARGETS.mountedGrowth,
      `mounted cards flat while scrolling (≤ ${TARGETS.mountedGrowth}× the first sample): ${int(first.mounted)} ${from(first)} → ${int(last.mounted)} ${from(last)}${short}`,
    ),
    verdict(
      reached && last.heap <= first.heap * TARGETS.heapGrowth,
      `JS heap flat while scrolling (≤ ${TARGETS.heapGrowth}× the first sample): ${(first.heap / 2 ** 20).toFixed(1)} MB ${from(first)} → ${(last.heap / 2 ** 20).toFixed(1)} MB ${from(last)}` +
        `${Number.isFinite(perThousand) ? ` (${kb(perThousand)} per 1,000 pins)` : ''}${short}`,
    ),
  ];
}
