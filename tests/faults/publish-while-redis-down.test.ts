import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { signUpUser } from '../support/client.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { type PrivateRedis, startPrivateRedis } from '../support/faults.ts';
import { useTestServer } from '../support/use-test-server.ts';

// A committed write stands when its event cannot be published (docs/operations.md). The Socket.IO
// Redis adapter fires `publish` without handling its promise; with Redis down that rejection used
// to be unhandled — which crashes a Node process (and fails this Vitest run). Here the server runs
// in this process against a private Redis, which is stopped before events are published.
let redis: PrivateRedis;

beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  await redis?.close();
});
const server = useTestServer(() => ({ db: 'postgres', env: { REDIS_URL: redis.url } }));

test('events published while Redis is down are dropped and logged, not crashing the process; emits work again after', async () => {
  const { client, user } = await signUpUser(server.url);
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Before the outage', imageUrl: 'https://a.test/x.png' })).body;

  await redis.stop();
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    // What write() publishes after a commit; the relay turns each into an adapter publish.
    for (let i = 0; i < 5; i++) {
      const updated = { pin: { ...pin, title: `During the outage ${i}` } };
      server.server.events.publish('change', { event: 'pin:updated', data: updated, audience: 'feed', seq: 1_000_000 + 2 * i });
      const likes = { pinId: pin.id, likesCount: i, version: i + 1 };
      server.server.events.publish('change', { event: 'pin:likes', data: likes, audience: { pinId: pin.id }, seq: 1_000_001 + 2 * i });
      server.server.events.publish('session.ended', { userId: user.id, sessionId: 'not-a-session' });
    }
    // Time for the publishes' failures to surface; not a limit on anything.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  expect(rejections).toEqual([]);

  await redis.start();
  // The process kept serving, and after Redis returns writes (which need the session store) work.
  let tries = 0;
  const writesMs = await timeUntil(BOUNDS.redisRecoveryMs, async () => (await client.post('/api/boards/', { name: `after ${++tries}` })).status === 201);
  console.log(`a write after Redis returned: ${formatMs(writesMs, BOUNDS.redisRecoveryMs)} (${tries} tries)`);
  expect(writesMs).toBeDefined();
});
