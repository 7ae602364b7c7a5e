import { randomInt } from 'node:crypto';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { WatchAck } from '../../contract/events.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import type { User } from '../../contract/users.ts';
import { RedisPresenceStore } from '../../backend/realtime/presence-redis.ts';
import { connectRedis } from '../../backend/redis.ts';
import { ApiClient, sameSessionOn, signUpUser } from '../support/client.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.ts';
import { eventsNamed, nextEvent, type TestSocket, watch } from '../support/sockets.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// The sharded bus (docs/operations.md, docs/realtime.md): two instances on the local Postgres
// sharing a three-node Redis Cluster of their own (REDIS_CLUSTER_URLS): live events through the
// sharded Socket.IO adapter (SPUBLISH/SSUBSCRIBE), sessions, presence and rate limits in the
// cluster, their multi-key scripts and pipelines within one hash slot each.

const API_LIMIT = 200;
// Windows are aligned to the epoch: a 30-day one rarely ends during a run.
const WINDOW_SECONDS = 30 * 24 * 3600;
const TOLERANCE = 2 * (Math.ceil(API_LIMIT / 50) - 1);

let cluster: RedisCluster | undefined;
let inspect: Cluster;
// Registered before the instances' hooks, so it runs after they have stopped.
afterAll(async () => {
  inspect?.disconnect();
  await cluster?.close();
});
const app = useTwoInstances(async () => {
  const started = performance.now();
  cluster = await startRedisCluster();
  console.log(`redis cluster of ${cluster.nodes.length} nodes ready in ${(performance.now() - started).toFixed(0)} ms`);
  return {
    env: {
      REDIS_CLUSTER_URLS: cluster.urls,
      TRUST_PROXY: 'loopback',
      API_RATE_LIMIT_PER_IP: String(API_LIMIT),
      API_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      PRESENCE_TTL_SECONDS: '3',
      PRESENCE_HEARTBEAT_SECONDS: '1',
    },
  };
});
beforeAll(async () => {
  inspect = new Cluster(cluster?.urls.split(',').map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })) ?? []);
});

function join(socket: TestSocket, pinId: number): Promise<WatchAck> {
  return new Promise((resolve) => {
    (socket.emit as (event: string, payload: unknown, ack: (answer: WatchAck) => void) => void)('presence:join', { pinId }, resolve);
  });
}

const lastViewers = (socket: TestSocket, pinId: number) => (eventsNamed(socket, 'presence') as Array<{ pinId: number; viewers: number }>).filter((p) => p.pinId === pinId).at(-1)?.viewers;

/** Each master's answer to a command, summed or listed by the caller. */
function perMaster(...args: string[]): Promise<unknown[]> {
  return Promise.all(inspect.nodes('master').map((node) => node.call(args[0] as string, ...args.slice(1))));
}

test('a socket on instance A gets the events written through instance B: pin created, pin:likes, comment', async () => {
  const { client } = await signUpUser(app.two.url, 'cw');
  const onA = await app.socket(app.one);
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Sharded', imageUrl: 'https://a.test/s.png' })).body;
  expect((await nextEvent(onA, 'pin:created', (p) => p.pin.id === pin.id)).pin).toEqual(pin);

  expect(await watch(onA, { pinIds: [pin.id] })).toEqual({ ok: true });
  await client.post('/api/favorites/', { pin_id: pin.id });
  expect(await nextEvent(onA, 'pin:likes', (p) => p.pinId === pin.id)).toEqual({ pinId: pin.id, likesCount: 1, version: 1, seq: expect.any(Number) });
  const comment = (await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'via B' })).body;
  expect((await nextEvent(onA, 'comment:created', (c) => c.comment.id === comment.id)).comment).toEqual(comment);

  // The sharded adapter's channels (`<channel>#/#…`), and none of the classic adapter's.
  const shardChannels = (await perMaster('PUBSUB', 'SHARDCHANNELS', `${app.one.config.socketChannel}#*`)).flat() as string[];
  const classic = (await perMaster('PUBSUB', 'CHANNELS', `${app.one.config.socketChannel}*`)).flat() as string[];
  console.log(`shard channels: ${shardChannels.length} (${shardChannels.slice(0, 4).join(', ')}…), classic channels: ${classic.length}`);
  expect(shardChannels).toContain(`${app.one.config.socketChannel}#/#`);
  expect(shardChannels).toContain(`${app.one.config.socketChannel}#/#pin:${pin.id}#`);
  expect(classic).toEqual([]);
});

test('a session made on instance A works on instance B, and its logout there ends it on both', async () => {
  const { client, user } = await signUpUser(app.one.url, 'cs');
  const onB = sameSessionOn(app.two.url, client);
  expect((await onB.get<{ user: User | null }>('/api/auth/')).body.user?.id).toBe(user.id);
  const pin = await newPin(onB, 'written on B');
  expect((await client.get<Pin>(`/api/pins/${pin.id}`)).body.title).toBe('written on B');
  await onB.get('/api/auth/logout');
  expect((await client.get<{ user: User | null }>('/api/auth/')).body.user).toBeNull();
  // Sessions have no common tag: they spread over the nodes (printed, not asserted: a handful of
  // keys may happen to hash to one node).
  const sizes = (await perMaster('DBSIZE')) as number[];
  console.log(`keys per node: ${sizes.join(', ')}`);
});

test('presence counts across the instances, and the heartbeat keeps them (its calls one pin each)', async () => {
  const alice = await signUpUser(app.one.url, 'cp');
  const bob = await signUpUser(app.two.url, 'cp');
  const pins = [await newPin(alice.client), await newPin(alice.client), await newPin(alice.client)];
  const onA = await app.socket(app.one, alice.client);
  const onB = await app.socket(app.two, bob.client);
  const anonymousOnB = await app.socket(app.two);
  for (const pin of pins) {
    for (const socket of [onA, onB, anonymousOnB]) expect(await join(socket, pin.id)).toEqual({ ok: true });
  }
  const all = () => pins.every((pin) => [onA, onB, anonymousOnB].every((s) => lastViewers(s, pin.id) === 3));
  const took = await timeUntil(BOUNDS.eventMs, async () => all());
  console.log(`presence: 3 viewers on ${pins.length} pins across the instances after ${formatMs(took, BOUNDS.eventMs)}`);
  expect(took).toBeDefined();
  // Past the TTL (3 s): only the heartbeats (1 s) keep the entries.
  await new Promise((resolve) => setTimeout(resolve, 4_500));
  const members = await Promise.all(pins.map((pin) => inspect.zcard(`${app.one.config.socketChannel}:presence:{pin:${pin.id}}`)));
  expect(members).toEqual([3, 3, 3]);
  anonymousOnB.disconnect();
  const afterLeave = await timeUntil(BOUNDS.eventMs, async () => pins.every((pin) => lastViewers(onA, pin.id) === 2));
  expect(afterLeave).toBeDefined();
});

test('the presence store on a cluster: one heartbeat over many pins and boards answers each', async () => {
  const redis = await connectRedis({ kind: 'cluster', urls: (cluster as RedisCluster).urls.split(',') }, () => {});
  try {
    const store = new RedisPresenceStore(redis, { prefix: `store-test:${process.pid}:`, ttlMs: 60_000, listMax: 10 });
    const keys = Array.from({ length: 20 }, (_, i) => ({ kind: i % 2 ? ('board' as const) : ('pin' as const), id: i + 1 }));
    const states = await store.refresh(
      keys.map((key, i) => ({
        key,
        entries: [
          { socketId: `s${i}`, userId: 7 },
          { socketId: `a${i}`, userId: undefined },
        ],
      })),
    );
    expect(states.map((s) => s.count)).toEqual(keys.map(() => 2));
    expect(states.filter((_, i) => i % 2).every((s) => s.userIds.includes(7))).toBe(true);
    expect((await store.leave(keys[0]!, { socketId: 's0', userId: 7 })).count).toBe(1);
  } finally {
    redis.disconnect();
  }
});

test(`the API limit is shared: calls alternating between the instances get their first 429 past ${API_LIMIT} by at most ${TOLERANCE}`, async () => {
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const clients = [new ApiClient(app.one.url), new ApiClient(app.two.url)];
  let call = 0;
  let refused = false;
  while (!refused && call < API_LIMIT + TOLERANCE + 10) {
    call += 1;
    const response = await clients[call % 2]!.request('GET', '/api/pins/?limit=1', { headers: { 'x-forwarded-for': address } });
    if (response.status === 429) refused = true;
    else expect(response.status).toBe(200);
  }
  console.log(`API limit ${API_LIMIT} over 2 instances on the cluster: the first 429 answered call ${call}`);
  expect(call).toBeGreaterThan(API_LIMIT);
  expect(call).toBeLessThanOrEqual(API_LIMIT + TOLERANCE + 1);
});
