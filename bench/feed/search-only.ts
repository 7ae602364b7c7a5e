import { type Client, createClient, emptyMeasured, percentile, round } from './load.ts';
import { PAGE, type Scenario } from './scenarios.ts';
import { type QueryShape, searchQuery, searchReads } from './search-scenarios.ts';

// `--search-only`: the search reads alone, beside a single-pin read measured in the same rounds (the
// machine is shared; the ratio is the figure to compare across runs), with the searches also split
// by the shape of their query. No deep-page walks, page sizes or browser.

const SHAPES: Array<[QueryShape, string]> = [
  ['one', 'search: one word'],
  ['two', 'search: two words'],
  ['typo', 'search: misspelt word'],
  ['prefix', 'search: word being typed'],
];

export async function measureSearch(baseUrl: string, options: { pins: number; requests: number; concurrency: number; rounds: number }): Promise<Scenario[]> {
  const client: Client = createClient(baseUrl, options.concurrency);
  try {
    await client.get('/api/pins/?limit=1');
    const randomInt = (below: number) => Math.floor(Math.random() * below);
    const plan: Array<{ scenario: Scenario; next: () => string }> = [
      { scenario: { name: 'single', label: 'single pin, random id', measured: emptyMeasured() }, next: () => `/api/pins/${1 + randomInt(options.pins)}` },
      ...searchReads(options.pins, PAGE).map(({ name, label, next }) => ({ scenario: { name, label, measured: emptyMeasured() }, next })),
      ...SHAPES.map(([shape, label]) => ({
        scenario: { name: 'search' as const, label, measured: emptyMeasured() },
        next: () => `/api/search?q=${encodeURIComponent(searchQuery(shape))}&limit=${PAGE}`,
      })),
    ];
    const warmup = Math.max(20, Math.floor(options.requests / 10));
    for (const { next } of plan) await round(client, next, warmup, options.concurrency, emptyMeasured());
    const perRound = Math.ceil(options.requests / options.rounds);
    for (let r = 0; r < options.rounds; r++) {
      for (const { scenario, next } of plan) await round(client, next, perRound, options.concurrency, scenario.measured);
    }
    return plan.map((step) => step.scenario);
  } finally {
    client.close();
  }
}

export function searchTable(title: string, scenarios: Scenario[]): string[] {
  const single = scenarios.find((s) => s.name === 'single');
  const base = single ? percentile(single.measured.latencies, 99) : NaN;
  const width = Math.max(...scenarios.map((s) => s.label.length)) + 2;
  const cell = (text: string, n: number) => text.padStart(n);
  const lines = [title, `  ${''.padEnd(width)}${cell('p50 ms', 9)}${cell('p99 ms', 9)}${cell('×p99', 7)}${cell('errors', 8)}`];
  for (const s of scenarios) {
    const p99 = percentile(s.measured.latencies, 99);
    lines.push(
      `  ${s.label.padEnd(width)}${cell(percentile(s.measured.latencies, 50).toFixed(1), 9)}${cell(p99.toFixed(1), 9)}${cell((p99 / base).toFixed(2), 7)}${cell(String(s.measured.errors), 8)}`,
    );
  }
  return lines;
}
