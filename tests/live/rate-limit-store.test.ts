// The general API limit's counter store (backend/http/batched-counter-store.ts): counted in
// process, reconciled with Redis in batches. Two stores on one Redis stand for two instances.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BatchedCounterStore, type BatchedCounterOptions } from '../../backend/http/batched-counter-store.ts';
import { connectRedis } from '../../backend/redis.ts';
import { REDIS_URL } from '../support/database.ts';
import { BOUNDS, timeUntil } from '../support/eventually.ts';
import { type PrivateRedis, startPrivateRedis } from '../support/faults.ts';

const HOUR = 3_600_000;
/**
 * The window of the tests that need one window throughout. Windows are aligned to the epoch, so a
 * test that starts near a window's end waits for the next one (awayFromWindowEnd); with an hour,
 * that was minutes in 1 of 12 runs and overran the test's timeout. A 30-day window makes the wait
 * rare, and each such test's timeout covers the wait as well (+ TEST_MS).
 */
const WINDOW = 30 * 24 * HOUR;
const TEST_MS = 60_000;
const clients: Redis[] = [];
const stores: BatchedCounterStore[] = [];
let redis: Redis;

beforeAll(async () => {
  redis = await client(REDIS_URL);
});
afterAll(async () => {
  for (const store of stores) store.shutdown();
  for (const name of names) {
    const keys = await redis.keys(`pinboard:rl:${name}:*`);
    if (keys.length) await redis.del(...keys);
  }
  for (const each of clients) each.disconnect();
});

async function client(url: string): Promise<Redis> {
  const connected = await connectRedis(url, () => {});
  clients.push(connected);
  return connected;
}

const names: string[] = [];
/** A store on its own Redis client, as an instance has; stores made with the same name share counters. */
async function instance(options: Partial<BatchedCounterOptions> & { name: string; limit: number }, url = REDIS_URL): Promise<BatchedCounterStore> {
  const store = new BatchedCounterStore({ windowMs: WINDOW, redis: await client(url), ...options });
  stores.push(store);
  return store;
}
function uniqueName(): string {
  const name = `test-${randomUUID()}`;
  names.push(name);
  return name;
}

/** Waits for the next window if this one ends within `needMs`, so a test's hits share one window. */
async function awayFromWindowEnd(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 10));
}

function redisKey(name: string, windowMs: number, key: string): string {
  return `pinboard:rl:${name}:${Math.floor(Date.now() / windowMs) * windowMs}:${key}`;
}

const LIMIT = 200;
/** The tolerance the store states: N instances admit at most `limit + N × (P − 1)` hits of a key per window. */
const tolerance = (store: BatchedCounterStore, instances: number) => instances * (store.reconcileAfter - 1);

describe('two instances sharing Redis', () => {
  for (const [label, flushMs] of [
    ['reconciling every 200 ms and every P hits', undefined],
    ['reconciling only every P hits (the worst case of the bound)', HOUR],
  ] as const) {
    test(
      `hits alternating between them, one at a time, ${label}: the first refusal comes past the limit by at most the stated tolerance`,
      async () => {
        await awayFromWindowEnd(WINDOW, 60_000);
        const name = uniqueName();
        const pair = [await instance({ name, limit: LIMIT, flushMs }), await instance({ name, limit: LIMIT, flushMs })] as const;
        const [first] = pair;
        expect(first.reconcileAfter).toBe(4);
        let firstRefused: number | undefined;
        let admitted = 0;
        const hits = 2 * LIMIT;
        for (let hit = 1; hit <= hits; hit++) {
          const { totalHits } = await pair[hit % 2]!.increment('203.0.113.9');
          if (totalHits <= LIMIT) admitted += 1;
          else firstRefused ??= hit;
        }
        console.log(`limit ${LIMIT}, 2 instances, P = ${first.reconcileAfter}: first refusal at hit ${firstRefused}, ${admitted} of ${hits} admitted`);
        expect(firstRefused).toBeGreaterThan(LIMIT);
        expect(firstRefused).toBeLessThanOrEqual(LIMIT + tolerance(first, 2) + 1);
        expect(admitted).toBeLessThanOrEqual(LIMIT + tolerance(first, 2));
        // Every hit reaches Redis: no count is lost in the batching.
        await Promise.all(pair.map((store) => store.flush()));
        expect(Number(await redis.get(redisKey(name, WINDOW, '203.0.113.9')))).toBe(hits);
      },
      60_000 + TEST_MS,
    );
  }

  test(
    'a flood: 2 × 25 callers flat out admit at most limit + 2 × (P − 1), and Redis holds every hit',
    async () => {
      await awayFromWindowEnd(WINDOW, 60_000);
      const name = uniqueName();
      const pair = [await instance({ name, limit: LIMIT }), await instance({ name, limit: LIMIT })];
      let admitted = 0;
      let hits = 0;
      const caller = async (store: BatchedCounterStore) => {
        for (let refused = 0; refused < 20;) {
          hits += 1;
          if ((await store.increment('198.51.100.1')).totalHits <= LIMIT) admitted += 1;
          else refused += 1;
        }
      };
      await Promise.all(pair.flatMap((store) => Array.from({ length: 25 }, () => caller(store))));
      console.log(`flood: ${admitted} of ${hits} hits admitted (limit ${LIMIT}, tolerance ${tolerance(pair[0]!, 2)})`);
      expect(admitted).toBeLessThanOrEqual(LIMIT + tolerance(pair[0]!, 2));
      await Promise.all(pair.map((store) => store.flush()));
      expect(Number(await redis.get(redisKey(name, WINDOW, '198.51.100.1')))).toBe(hits);
    },
    60_000 + TEST_MS,
  );

  test("counters start again in the next window, and the past window's counter expires in Redis", async () => {
    const windowMs = 1_000;
    await awayFromWindowEnd(windowMs, 500);
    const name = uniqueName();
    const [one, two] = [await instance({ name, limit: 5, windowMs }), await instance({ name, limit: 5, windowMs })];
    const answers = [];
    for (let hit = 0; hit < 6; hit++) answers.push((await (hit % 2 ? two : one).increment('k')).totalHits);
    expect(answers.at(-1)).toBeGreaterThan(5);
    const pastKey = redisKey(name, windowMs, 'k');
    const pttl = await redis.pttl(pastKey);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(2 * windowMs);
    const resetAt = (one.get('k')?.resetTime as Date).getTime();
    await new Promise((resolve) => setTimeout(resolve, resetAt - Date.now() + 10));
    expect((await one.increment('k')).totalHits).toBe(1);
    // The other instance counts in the same new counter.
    expect((await two.increment('k')).totalHits).toBe(2);
  });
});

describe('in one process', () => {
  test('without Redis the count is exact and local', async () => {
    const store = new BatchedCounterStore({ name: 'local', windowMs: HOUR, limit: 2 });
    expect(store.localKeys).toBe(true);
    expect([1, 2, 3].map(() => (store.increment('k') as { totalHits: number }).totalHits)).toEqual([1, 2, 3]);
  });

  test('memory is bounded: a new key beyond maxKeys evicts the least recently counted one', async () => {
    const store = new BatchedCounterStore({ name: 'local', windowMs: HOUR, limit: 10, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'a', 'd']) await store.increment(key);
    expect(['a', 'b', 'c', 'd'].map((key) => store.get(key)?.totalHits)).toEqual([2, undefined, 1, 1]);
  });
});

describe('while Redis is down', () => {
  let privateRedis: PrivateRedis;
  beforeAll(async () => {
    privateRedis = await startPrivateRedis();
  });
  afterAll(() => privateRedis?.close());

  test(
    'each instance fails open but keeps counting alone, reports it, and sends its hits once Redis is back',
    async () => {
      await awayFromWindowEnd(WINDOW, 5 * 60_000);
      const name = uniqueName();
      const errors: unknown[] = [];
      const store = await instance({ name, limit: 10, onError: (error) => errors.push(error) }, privateRedis.url);
      for (let hit = 0; hit < 5; hit++) await store.increment('k');
      await store.flush();

      await privateRedis.stop();
      const answers: number[] = [];
      for (let hit = 0; hit < 7; hit++) answers.push((await store.increment('k')).totalHits);
      // The local count goes on: the 11th hit is refused by this instance alone.
      expect(answers).toEqual([6, 7, 8, 9, 10, 11, 12]);
      expect(await timeUntil(BOUNDS.redisRecoveryMs, () => errors.length > 0)).toBeDefined();

      await privateRedis.start();
      const direct = await client(privateRedis.url);
      const key = redisKey(name, WINDOW, 'k');
      const healed = await timeUntil(BOUNDS.redisRecoveryMs, async () => Number(await direct.get(key)) === 12);
      console.log(`after Redis came back, the hits counted during the outage reached it in ${healed?.toFixed(0)} ms`);
      expect(healed).toBeDefined();
      expect((await store.increment('k')).totalHits).toBe(13);
    },
    5 * 60_000 + TEST_MS,
  );
});
