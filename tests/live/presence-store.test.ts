import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RedisPresenceStore } from '../../backend/realtime/presence-redis.ts';
import { MemoryPresenceStore, type PresenceEntry, type PresenceKey, type PresenceStore } from '../../backend/realtime/presence-store.ts';
import { REDIS_URL } from '../support/database.ts';

// The two presence stores answer alike: users counted once however many sockets, a socket's leave
// keeps its user while another socket of theirs is present, a heartbeat batch of many keys (a key
// larger than one script call included) refreshes and answers each.
let redis: Redis;
const prefix = `pinboard-test:presence-store:${process.pid}:${Date.now()}:`;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const anonymous = (n: number): PresenceEntry => ({ socketId: `anon-${n}`, userId: undefined });
const tab = (userId: number, n: number): PresenceEntry => ({ socketId: `user-${userId}-tab-${n}`, userId });

describe.each([
  ['Redis', (): PresenceStore => new RedisPresenceStore(redis, { prefix, ttlMs: 60_000, listMax: 100 })],
  ['in-process', (): PresenceStore => new MemoryPresenceStore(60_000, 100)],
])('%s store', (_name, makeStore) => {
  test('counts users once and anonymous sockets each; one tab leaving keeps the user', async () => {
    const store = makeStore();
    const pin: PresenceKey = { kind: 'pin', id: 1 };
    expect((await store.join(pin, tab(5, 1))).count).toBe(1);
    expect((await store.join(pin, tab(5, 2))).count).toBe(1);
    expect((await store.join(pin, anonymous(1))).count).toBe(2);
    expect((await store.join(pin, tab(6, 1))).count).toBe(3);
    expect((await store.leave(pin, tab(5, 1))).count).toBe(3);
    expect((await store.leave(pin, tab(5, 2))).count).toBe(2);
    expect((await store.leave(pin, anonymous(1))).count).toBe(1);
    expect(await store.read(pin)).toEqual({ count: 1, userIds: [] });
  });

  test('a heartbeat batch refreshes many keys (one bigger than a script call) and answers each', async () => {
    const store = makeStore();
    const big: PresenceKey = { kind: 'pin', id: 2 };
    const small: PresenceKey = { kind: 'pin', id: 3 };
    const board: PresenceKey = { kind: 'board', id: 4 };
    const many = Array.from({ length: 1_200 }, (_, n) => anonymous(n));
    const states = await store.refresh([
      { key: big, entries: [...many, tab(7, 1), tab(7, 2)] },
      { key: small, entries: [tab(8, 1)] },
      { key: board, entries: [tab(8, 1), tab(9, 1), tab(9, 2)] },
    ]);
    expect(states.map((s) => s.count)).toEqual([1_201, 1, 2]);
    expect([...(states[2]?.userIds ?? [])].sort()).toEqual([8, 9]);
    // The refreshed sockets are known per user: one of user 9's tabs leaving keeps them.
    expect((await store.leave(board, tab(9, 1))).userIds.sort()).toEqual([8, 9]);
    expect((await store.leave(board, tab(9, 2))).userIds).toEqual([8]);
  });
});

test('entries nobody refreshes expire', async () => {
  let now = 1_000;
  const store = new MemoryPresenceStore(3_000, 100, () => now);
  const pin: PresenceKey = { kind: 'pin', id: 1 };
  await store.join(pin, anonymous(1));
  await store.join(pin, tab(5, 1));
  now += 2_000;
  await store.refresh([{ key: pin, entries: [tab(5, 1)] }]);
  now += 2_000;
  expect((await store.read(pin)).count).toBe(1);
  const redisStore = new RedisPresenceStore(redis, { prefix: `${prefix}expiry:`, ttlMs: 300, listMax: 100 });
  await redisStore.join(pin, anonymous(1));
  expect((await redisStore.read(pin)).count).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect((await redisStore.read(pin)).count).toBe(0);
});
