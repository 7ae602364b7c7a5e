import { Cluster } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ChangesAnswer } from '../../contract/changes.ts';
import type { Pin } from '../../contract/pins.ts';
import { createChangeTracker } from '../../frontend/live/changes.ts';
import { ApiClient } from '../support/client.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { createTestDatabase } from '../support/database.ts';
import { histogram } from '../support/faults.ts';
import { liveSocket } from '../support/live-socket.ts';
import { type AppProcess, startAppProcess } from '../support/processes.ts';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.ts';
import { nextEvent, type TestSocket } from '../support/sockets.ts';
import { crashedInstances, sameSessionOn, signUpMany, sleep, summary, timed } from './helpers.ts';

// One node of the Redis Cluster (REDIS_CLUSTER_URLS: sessions, rate limits, presence and the
// sharded Socket.IO adapter) restarts while pins are written through both instances (their own
// processes on the local Postgres; the node is the fault, so no nginx) and sockets listen. It is
// the node that owns the feed's shard channel, so its subscribers must subscribe again. It goes
// down with SIGTERM for ~3 s (past the cluster's node timeout: the cluster reports `fail`
// meanwhile) and comes back with its config file and append-only file. docs/operations.md
// (Faults): writes answer 2xx or 503, sockets stay connected, events resume, and no change is
// lost — clients that missed events catch up through GET /api/changes, as the web client's own
// tracker (frontend/live/changes.ts) does when it hears the log's head.

const OUTAGE_MS = 3000;
const CHANNEL = 'pinboard-cluster-fault';

let redis: RedisCluster | undefined;
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const apps: AppProcess[] = [];
const sockets: TestSocket[] = [];
let scene: Awaited<ReturnType<typeof restartNodeUnderLoad>>;

beforeAll(async () => {
  const started = performance.now();
  [redis, database] = await Promise.all([startRedisCluster(), createTestDatabase()]);
  const env = {
    DATABASE_URL: database.url,
    REDIS_CLUSTER_URLS: redis.urls,
    SOCKET_CHANNEL: CHANNEL,
    CHANGES_HEAD_INTERVAL_SECONDS: '1',
    AUTO_SEED: 'false',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    API_RATE_LIMIT_PER_IP: '1000000',
    FETCH_PENDING_PER_USER: '1000000',
  };
  apps.push(await startAppProcess({ ...env, AUTO_MIGRATE: 'true' }, { name: 'app1', echo: false }));
  apps.push(await startAppProcess({ ...env, AUTO_MIGRATE: 'false' }, { name: 'app2', echo: false }));
  console.log(`redis cluster and two instances up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  scene = await restartNodeUnderLoad(apps, redis);
}, 120_000);
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => printWarnings());
});

/** The instances' warnings and errors, each message once with its count (the full logs are long). */
function printWarnings(): void {
  const counts = new Map<string, number>();
  for (const line of apps.flatMap((app) => app.logs)) {
    if (!/"level":[45]0/.test(line)) continue;
    const message = `${/"msg":"[^"]*"/.exec(line)?.[0] ?? ''} ${/"message":"[^"]*"/.exec(line)?.[0] ?? ''}`;
    counts.set(message, (counts.get(message) ?? 0) + 1);
  }
  for (const [message, count] of counts) console.log(`${count}× ${message}`);
}
// eslint-disable-next-line no-empty-pattern
afterAll(async ({}, suite) => {
  if (suite.result?.state === 'fail') printWarnings();
  for (const socket of sockets.splice(0)) socket.disconnect();
  await Promise.all(apps.map((app) => app.stop()));
  await database?.drop();
  await redis?.close();
});

/** A client as the web client runs: applies `pin:created` events, and catches up from the log. */
function feedClient(socket: TestSocket, api: ApiClient) {
  const seen = new Set<number>();
  /** The pins this socket heard of as live events (the rest came from the log). */
  const live = new Set<number>();
  socket.on('pin:created', ({ pin }) => live.add(pin.id));
  const tracker = createChangeTracker({
    apply(event, payload) {
      if (event === 'pin:created') seen.add((payload as { pin: Pin }).pin.id);
    },
    async fetchChanges(since) {
      const res = await api.get<ChangesAnswer>(`/api/changes?since=${since}`);
      if (res.status !== 200) throw new Error(`GET /api/changes → ${res.status}`);
      return res.body;
    },
    refetchScreens: () => Promise.reject(new Error('the log answered reset')),
    retryMs: 200,
  });
  tracker.connected(false, () => true, Promise.resolve());
  for (const { event, payload } of socket.received) tracker.event(event, payload);
  socket.onAny((event: string, payload: unknown) => tracker.event(event, payload));
  socket.on('connect', () => tracker.connected(true, () => true, Promise.resolve()));
  return { seen, live, tracker };
}

/** The port of the master that owns `key`'s hash slot. */
async function ownerOf(nodes: RedisCluster, key: string): Promise<number> {
  const inspect = new Cluster(nodes.nodes.map((node) => ({ host: '127.0.0.1', port: node.port })));
  try {
    const slot = (await inspect.call('CLUSTER', 'KEYSLOT', key)) as number;
    const ranges = (await inspect.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
    const range = ranges.find(([from, to]) => slot >= from && slot <= to);
    if (!range) throw new Error(`no node owns slot ${slot}`);
    return range[2][1];
  } finally {
    inspect.disconnect();
  }
}

async function restartNodeUnderLoad(instances: AppProcess[], nodes: RedisCluster) {
  const [first, second] = instances;
  if (!first || !second) throw new Error('two instances expected');
  const url = first.url;
  const users = await signUpMany(url, 4, 'shard');
  const disconnects: string[] = [];
  const open = async (base: string, name: string, client?: ApiClient) => {
    const socket = await liveSocket(base, client);
    sockets.push(socket);
    socket.on('disconnect', (reason) => disconnects.push(`${name}: ${reason}`));
    return { name, socket, ...feedClient(socket, new ApiClient(url)) };
  };
  const readers = [await open(first.url, 'anon on app1'), await open(second.url, 'anon on app2'), await open(second.url, 'user on app2', sameSessionOn(second.url, users[0]!.client))];

  // Cross-instance delivery: a pin created through app2 reaches a socket on app1 (sharded adapter).
  const onFirst = readers[0]!.socket;
  const writerOnSecond = sameSessionOn(second.url, users[0]!.client);
  const crossInstance = async (waitMs: number): Promise<boolean> => {
    const created = await timed(() => writerOnSecond.post<Pin>('/api/pins/', { title: 'across', imageUrl: 'https://a.test/c.png' }));
    const pin = created.response?.body as Pin | undefined;
    if (created.status !== 201 || !pin) return false;
    return nextEvent(onFirst, 'pin:created', (p) => p.pin.id === pin.id, waitMs).then(
      () => true,
      () => false,
    );
  };
  expect(await crossInstance(BOUNDS.eventMs), 'cross-instance delivery before the restart').toBe(true);

  // Writers: pins through both instances, until a little after the restart.
  const acknowledged: number[] = [];
  const answers: Array<{ status: number; ms: number }> = [];
  let writing = true;
  const bases = [first.url, second.url];
  const writers = users.slice(1).map(async (user, i) => {
    for (let round = 0; writing; round++) {
      const api = sameSessionOn(bases[(i + round) % bases.length] as string, user.client);
      const answer = await timed(() => api.post<Pin>('/api/pins/', { title: `w${i}-${round}`, imageUrl: 'https://a.test/w.png' }));
      answers.push({ status: answer.status, ms: answer.ms });
      if (answer.status === 201) acknowledged.push((answer.response?.body as Pin).id);
      else await sleep(50);
    }
  });

  await sleep(1000);
  const port = await ownerOf(nodes, `${CHANNEL}#/#feed#`);
  const node = nodes.nodes.find((n) => n.port === port);
  if (!node) throw new Error(`no node on port ${port}`);
  await node.stop('SIGTERM');
  const stoppedAt = performance.now();
  await sleep(OUTAGE_MS);
  await node.start();
  const returnedAt = performance.now();
  await nodes.waitUntilOk(30_000);
  const okAt = performance.now();
  await sleep(2000);
  writing = false;
  await Promise.all(writers);

  const crossBackMs = await timeUntil(BOUNDS.redisRecoveryMs, () => crossInstance(2000), returnedAt);
  // Every reader shows every acknowledged pin: by its event, or caught up from the log.
  const caughtUpMs = await timeUntil(BOUNDS.eventMs, async () => readers.every((r) => acknowledged.every((id) => r.seen.has(id))), returnedAt);
  return { apps: instances, readers, acknowledged, answers, disconnects, crossBackMs, caughtUpMs, outageMs: returnedAt - stoppedAt, okAfterMs: okAt - returnedAt };
}

test('every write during the restart answers 2xx or 503 (no other error), and some were stored', () => {
  const { answers, acknowledged, outageMs, okAfterMs } = scene;
  console.log(
    `node down ${(outageMs / 1000).toFixed(1)} s, cluster ok ${okAfterMs.toFixed(0)} ms after its return; ${answers.length} writes, statuses ${JSON.stringify(histogram(answers))}, latency ${summary(answers.map((a) => a.ms))}`,
  );
  expect(answers.filter((a) => a.status !== 201 && a.status !== 503).map((a) => a.status)).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(0);
});

test('cross-instance events resume by themselves once the node is back', () => {
  console.log(`cross-instance event after the node returned: ${formatMs(scene.crossBackMs, BOUNDS.redisRecoveryMs)}`);
  expect(scene.crossBackMs).toBeDefined();
});

test('no change is lost: every reader shows every acknowledged pin (events, or GET /api/changes)', () => {
  const { readers, acknowledged, caughtUpMs } = scene;
  console.log(`every reader had all ${acknowledged.length} acknowledged pins ${formatMs(caughtUpMs, BOUNDS.eventMs)} after the node returned`);
  for (const r of readers) console.log(`  ${r.name}: ${acknowledged.filter((id) => r.live.has(id)).length} as live events, the rest from GET /api/changes`);
  for (const reader of readers)
    expect(
      acknowledged.filter((id) => !reader.seen.has(id)),
      reader.name,
    ).toEqual([]);
});

test('sockets stay connected, and no instance dies', () => {
  const { disconnects, apps: running } = scene;
  console.log(`socket disconnects: ${disconnects.length} ${JSON.stringify(disconnects.slice(0, 5))}`);
  expect(disconnects).toEqual([]);
  expect(crashedInstances(running)).toEqual([]);
});
