import type { PinList } from '../../contract/pins.ts';
import { type Client, createClient, emptyMeasured, type Measured, round } from './load.ts';
import { type SearchScenarioName, searchReads } from './search-scenarios.ts';

// The reads measured against one running app: a single pin by id, the first and a deep page of both
// home orders, and search, the type-ahead, a tag's pins and related pins (./search-scenarios.ts). Deep pages are reached honestly, by walking the cursors from page one;
// the cursors of a stretch of pages past the walk's depth are then reused in rotation, so repeated
// requests do not all hit the same rows.

export const PAGE = 50;

export type ScenarioName = 'single' | 'newestFirst' | 'newestDeep' | 'shuffleFirst' | 'shuffleDeep' | SearchScenarioName;

export interface Scenario {
  name: ScenarioName;
  label: string;
  measured: Measured;
}

export interface Walk {
  pages: number;
  pins: number;
  distinct: number;
  seconds: number;
}

export interface PageSize {
  /** Bytes of the JSON as the server writes it, and as sent gzip- and brotli-compressed. */
  raw: number;
  gzip: number;
  br: number;
  pins: number;
}

export interface FeedFigures {
  scenarios: Scenario[];
  newestSize: PageSize;
  shuffleSize: PageSize;
  singleSize: number;
  walks: { newest: Walk; shuffle: Walk };
}

export interface FeedOptions {
  pins: number;
  requests: number;
  concurrency: number;
  rounds: number;
  deepPages: number;
}

const ROTATION = 20;

async function getJson<T>(client: Client, path: string): Promise<T> {
  const answer = await client.get(path, { 'accept-encoding': 'identity' });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(answer.body.toString('utf8')) as T;
}

/** Follows nextCursor for `pages` pages; returns the last `keep` cursors (to pages pages - keep + 2 … pages + 1). */
async function walk(client: Client, path: string, pages: number, keep: number): Promise<{ cursors: string[]; walk: Walk }> {
  const ids = new Set<number>();
  const cursors: string[] = [];
  let pins = 0;
  let cursor: string | null = null;
  const started = performance.now();
  for (let page = 0; page < pages; page++) {
    const body: PinList = await getJson<PinList>(client, `${path}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    pins += body.pins.length;
    for (const pin of body.pins) ids.add(pin.id);
    cursor = body.nextCursor;
    if (cursor === null) throw new Error(`${path}: the list ended after ${page + 1} pages`);
    if (page >= pages - keep) cursors.push(cursor);
  }
  return { cursors, walk: { pages, pins, distinct: ids.size, seconds: (performance.now() - started) / 1000 } };
}

async function pageSize(client: Client, path: string): Promise<PageSize> {
  const bytes = async (encoding: string) => {
    const answer = await client.get(path, { 'accept-encoding': encoding });
    const used = answer.headers['content-encoding'] ?? 'identity';
    if (answer.status !== 200 || used !== encoding) throw new Error(`GET ${path} with ${encoding}: ${answer.status}, content-encoding ${used}`);
    return answer.body.length;
  };
  const body = await getJson<PinList>(client, path);
  return { raw: await bytes('identity'), gzip: await bytes('gzip'), br: await bytes('br'), pins: body.pins.length };
}

const randomInt = (below: number) => Math.floor(Math.random() * below);
const rotate = (items: string[]) => {
  let next = 0;
  return () => items[next++ % items.length] as string;
};

export async function measureFeed(baseUrl: string, options: FeedOptions): Promise<FeedFigures> {
  const client = createClient(baseUrl, options.concurrency);
  try {
    await getJson<PinList>(client, `/api/pins/?limit=1`); // the visitor's cookies
    const keep = Math.min(ROTATION, Math.max(1, Math.floor(options.pins / PAGE / 4)));
    // The deep pages are depth + 1 … depth + keep: the walk goes to the page before the last of them.
    const depth = Math.max(1, Math.min(options.deepPages, Math.floor(options.pins / PAGE) - keep));
    const seed = randomInt(2 ** 31);
    const newestPath = `/api/pins/?limit=${PAGE}`;
    const shufflePath = `/api/pins/?order=shuffle&seed=${seed}&limit=${PAGE}`;
    const newest = await walk(client, newestPath, depth + keep - 1, keep);
    const shuffle = await walk(client, shufflePath, depth + keep - 1, keep);
    const deepLabel = `page ${depth + 1}–${depth + keep}`;
    const newestDeep = rotate(newest.cursors);
    const shuffleDeep = rotate(shuffle.cursors);

    const plan: Array<{ scenario: Scenario; next: () => string }> = [
      { scenario: { name: 'single', label: 'single pin, random id', measured: emptyMeasured() }, next: () => `/api/pins/${1 + randomInt(options.pins)}` },
      { scenario: { name: 'newestFirst', label: 'newest, page 1', measured: emptyMeasured() }, next: () => newestPath },
      { scenario: { name: 'newestDeep', label: `newest, ${deepLabel}`, measured: emptyMeasured() }, next: () => `${newestPath}&cursor=${encodeURIComponent(newestDeep())}` },
      {
        scenario: { name: 'shuffleFirst', label: 'shuffle, page 1, new seed each', measured: emptyMeasured() },
        next: () => `/api/pins/?order=shuffle&seed=${randomInt(2 ** 31)}&limit=${PAGE}`,
      },
      { scenario: { name: 'shuffleDeep', label: `shuffle, ${deepLabel}`, measured: emptyMeasured() }, next: () => `${shufflePath}&cursor=${encodeURIComponent(shuffleDeep())}` },
      ...searchReads(options.pins, PAGE).map(({ name, label, next }) => ({ scenario: { name, label, measured: emptyMeasured() }, next })),
    ];

    // Warm-up, not recorded: connections, JIT, plan caches.
    const warmup = Math.max(20, Math.floor(options.requests / 10));
    for (const { next } of plan) await round(client, next, warmup, options.concurrency, emptyMeasured());
    // The machine is shared: interleaved rounds spread any slow spell over every kind of read,
    // so the ratios between them stay fair.
    const perRound = Math.ceil(options.requests / options.rounds);
    for (let r = 0; r < options.rounds; r++) {
      for (const { scenario, next } of plan) await round(client, next, perRound, options.concurrency, scenario.measured);
    }

    const single = await client.get(`/api/pins/${1 + randomInt(options.pins)}`, { 'accept-encoding': 'identity' });
    return {
      scenarios: plan.map((step) => step.scenario),
      newestSize: await pageSize(client, newestPath),
      shuffleSize: await pageSize(client, shufflePath),
      singleSize: single.body.length,
      walks: { newest: newest.walk, shuffle: shuffle.walk },
    };
  } finally {
    client.close();
  }
}
