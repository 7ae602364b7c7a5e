import { expect, test } from 'vitest';
import { ReadCache } from '../../backend/http/read-cache.ts';

// The per-instance cache of public reads (backend/http/read-cache.ts), on its own: what it serves,
// what an invalidation drops, and the race an invalidation can lose against a load under way.

const loadOf = (value: { n: number }, tags: string[]) => {
  let calls = 0;
  return {
    calls: () => calls,
    read: { load: async () => (calls++, { ...value }), tags: () => tags },
  };
};

test('serves a stored answer until one of its tags is invalidated', async () => {
  const cache = new ReadCache({ maxEntries: 10, ttlMs: 60_000 });
  const source = loadOf({ n: 1 }, ['pin:1']);
  const first = await cache.read('pin:1', source.read);
  expect(JSON.parse(first.body.toString())).toEqual({ n: 1 });
  expect((await cache.read('pin:1', source.read)).etag).toBe(first.etag);
  expect(source.calls()).toBe(1);
  cache.invalidate(['pin:2']);
  await cache.read('pin:1', source.read);
  expect(source.calls()).toBe(1);
  cache.invalidate(['pin:1']);
  await cache.read('pin:1', source.read);
  expect(source.calls()).toBe(2);
});

test('an answer loaded while its tag was invalidated is served to its request but not stored', async () => {
  const cache = new ReadCache({ maxEntries: 10, ttlMs: 60_000 });
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const slow = { load: async () => (calls++, await gate, { n: 'old' }), tags: () => ['pin:1'] };
  const pending = cache.read('pin:1', slow);
  cache.invalidate(['pin:1']);
  release();
  expect(JSON.parse((await pending).body.toString())).toEqual({ n: 'old' });
  await cache.read('pin:1', { load: async () => (calls++, { n: 'new' }), tags: () => ['pin:1'] });
  expect(calls).toBe(2);
});

test('concurrent misses share one load; a request after an invalidation does not join it', async () => {
  const cache = new ReadCache({ maxEntries: 10, ttlMs: 60_000 });
  let calls = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const read = { load: async () => (calls++, await gate, { n: calls }), tags: () => ['pin:1'] };
  const a = cache.read('pin:1', read);
  const b = cache.read('pin:1', read);
  cache.invalidate(['pin:1']);
  const c = cache.read('pin:1', read);
  release();
  await Promise.all([a, b, c]);
  expect(calls).toBe(2);
});

test('entries expire after the TTL and the oldest go first when full', async () => {
  const cache = new ReadCache({ maxEntries: 2, ttlMs: 30 });
  let calls = 0;
  const read = (tag: string) => ({ load: async () => (calls++, { tag }), tags: () => [tag] });
  await cache.read('a', read('a'));
  await cache.read('b', read('b'));
  await cache.read('c', read('c'));
  expect(cache.size).toBe(2);
  await cache.read('a', read('a'));
  expect(calls).toBe(4);
  await new Promise((resolve) => setTimeout(resolve, 60));
  await cache.read('a', read('a'));
  expect(calls).toBe(5);
});
