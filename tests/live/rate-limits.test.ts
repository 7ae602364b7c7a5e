// The per-address limits across two instances (separate processes on one Postgres and Redis): the
// general API limit counts in process and reconciles in batches, within its stated tolerance; the
// sign-in limit stays exact. Client addresses come from X-Forwarded-For (a trusted proxy's), one
// fresh address per test, so other servers sharing this machine's Redis do not add to the counts.
import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { MSG } from '../../contract/messages.ts';
import { ApiClient } from '../support/client.ts';
import { createTestDatabase, REDIS_URL } from '../support/database.ts';
import { type AppProcess, startAppProcess } from '../support/processes.ts';

const API_LIMIT = 200;
const AUTH_LIMIT = 5;
// Windows are aligned to the epoch: a 30-day one rarely ends during a run (awayFromWindowEnd waits if it does).
const WINDOW_SECONDS = 30 * 24 * 3600;
/**
 * The store's stated tolerance (backend/http/batched-counter-store.ts): N instances admit at most
 * `limit + N × (P − 1)` calls per window, P = ceil(limit / 50), and none is refused before the
 * limit is passed.
 */
const TOLERANCE = 2 * (Math.ceil(API_LIMIT / 50) - 1);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let instances: AppProcess[] = [];
let redis: Redis;
const addresses: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    SOCKET_CHANNEL: `pinboard-test:${new URL(database.url).pathname.slice(1)}`,
    AUTO_MIGRATE: 'true',
    AUTO_SEED: 'false',
    TRUST_PROXY: 'loopback',
    API_RATE_LIMIT_PER_IP: String(API_LIMIT),
    API_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    AUTH_RATE_LIMIT_PER_IP: String(AUTH_LIMIT),
  };
  const one = await startAppProcess(env);
  instances = [one, await startAppProcess({ ...env, AUTO_MIGRATE: 'false' })];
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await database?.drop();
  for (const address of addresses) {
    const keys = await redis.keys(`pinboard:rl:*${address}`);
    if (keys.length) await redis.del(...keys);
  }
  redis?.disconnect();
});

function freshAddress(): string {
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  addresses.push(address);
  return address;
}

/** This test's calls share one window: if the current one ends within a minute, wait for the next. */
async function awayFromWindowEnd(): Promise<void> {
  const windowMs = WINDOW_SECONDS * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 10));
}

test(`calls alternating between the instances: the first 429 comes past the limit (${API_LIMIT}) by at most ${TOLERANCE} calls, with the error shape and Retry-After`, async () => {
  await awayFromWindowEnd();
  const address = freshAddress();
  const clients = instances.map((instance) => new ApiClient(instance.url));
  let call = 0;
  let refused: Awaited<ReturnType<ApiClient['request']>> | undefined;
  while (!refused && call < API_LIMIT + TOLERANCE + 10) {
    call += 1;
    const response = await clients[call % 2]!.request('GET', '/api/pins/?limit=1', { headers: { 'x-forwarded-for': address } });
    if (response.status === 429) refused = response;
    else expect(response.status).toBe(200);
  }
  console.log(`API limit ${API_LIMIT} over 2 instances: the first 429 answered call ${call} (allowed: ${API_LIMIT + 1}–${API_LIMIT + TOLERANCE + 1})`);
  expect(call).toBeGreaterThan(API_LIMIT);
  expect(call).toBeLessThanOrEqual(API_LIMIT + TOLERANCE + 1);
  expect(refused?.body).toEqual({ message: MSG.rateLimited, errors: [MSG.rateLimited], fields: {} } satisfies ErrorBody);
  const retryAfter = Number(refused?.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);

  // From here on both instances refuse that address (each within one more reconciliation), and
  // another address is served.
  const after = [];
  for (let i = 0; i < 2 * TOLERANCE + 4; i++) {
    after.push((await clients[i % 2]!.request('GET', '/api/pins/?limit=1', { headers: { 'x-forwarded-for': address } })).status);
  }
  expect(after.slice(-4)).toEqual([429, 429, 429, 429]);
  for (const client of clients) {
    expect((await client.request('GET', '/api/pins/?limit=1', { headers: { 'x-forwarded-for': freshAddress() } })).status).toBe(200);
  }
}, 120_000); // the test, plus up to a minute waiting for a fresh window

test(`sign-in attempts stay limited exactly: attempt ${AUTH_LIMIT + 1} from one address is refused, whichever instance takes it`, async () => {
  await awayFromWindowEnd();
  const address = freshAddress();
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= AUTH_LIMIT + 1; attempt++) {
    const client = new ApiClient(instances[attempt % 2]!.url);
    // The anti-forgery token first, from the same address (as a script behind that proxy would).
    await client.request('GET', '/api/auth/', { headers: { 'x-forwarded-for': address } });
    const response = await client.request<ErrorBody>('POST', '/api/auth/login', {
      json: { email: `nobody${attempt}@example.test`, password: 'a wrong password' },
      headers: { 'x-forwarded-for': address },
    });
    statuses.push(response.status);
    if (response.status === 429) expect(response.body.message).toBe(MSG.rateLimited);
  }
  expect(statuses).toEqual([...Array<number>(AUTH_LIMIT).fill(401), 429]);
}, 120_000); // the test, plus up to a minute waiting for a fresh window
