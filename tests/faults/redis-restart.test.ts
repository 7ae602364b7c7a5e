import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import type { User } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { type FaultCluster, histogram, startFaultCluster } from '../support/faults.ts';
import { nextEvent, type TestSocket } from '../support/sockets.ts';
import { LOAD_KINDS, liveSocket, mapLimit, mixedLoad, sameSessionOn, signUpMany, sleep, summary, timed } from './helpers.ts';

// The private Redis (sessions, rate limits, the Socket.IO adapter) goes down for ~3 s and comes
// back with its append-only file. DESIGN §8: requests answer fast (503 with the error shape, never
// a 2xx for a write that was not stored), sockets stay connected, and the service recovers by
// itself — sign-ups and cross-instance events work again — with sessions kept.

const OUTAGE_MS = 3000;
let cluster: FaultCluster;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  cluster = await startFaultCluster();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

test('Redis restart: bounded answers, no false 2xx, sockets stay connected, recovery by itself', async () => {
  onTestFailed(() => cluster.printLogs());
  const url = cluster.url;
  const [first, second] = cluster.apps;
  if (!first || !second) throw new Error('two instances expected');
  const users = await signUpMany(url, 6, 'redis');

  // Sockets through nginx (signed in and anonymous), and one straight on each instance.
  const disconnects: string[] = [];
  const track = (socket: TestSocket, name: string) => {
    sockets.push(socket);
    socket.on('disconnect', (reason) => disconnects.push(`${name}: ${reason}`));
    return socket;
  };
  for (const [i, { client }] of users.entries()) track(await liveSocket(url, client), `user${i}`);
  track(await liveSocket(url), 'anon1');
  track(await liveSocket(url), 'anon2');
  const onFirst = track(await liveSocket(first.url), 'anon on app1');
  track(await liveSocket(second.url), 'anon on app2');

  // Cross-instance delivery: a pin created through app2 reaches a socket on app1 (Redis adapter).
  const writerOnSecond = sameSessionOn(second.url, (users[0] as { client: ApiClient }).client);
  const crossInstance = async (timeoutMs: number): Promise<boolean> => {
    const created = await timed(() => writerOnSecond.post<Pin>('/api/pins/', { title: 'across', imageUrl: 'https://a.test/c.png' }), 3000);
    const pin = created.response?.body as Pin | undefined;
    if (created.status !== 201 || !pin) return false;
    return nextEvent(onFirst, 'pin:created', (p) => p.pin.id === pin.id, timeoutMs).then(
      () => true,
      () => false,
    );
  };
  expect(await crossInstance(3000)).toBe(true);

  // The outage: every kind of request, as a few users would send them, for OUTAGE_MS.
  await cluster.redis.stop();
  const stoppedAt = performance.now();
  const until = stoppedAt + OUTAGE_MS;
  const client = (i: number) => (users[i] as { client: ApiClient }).client;
  const load = mixedLoad({
    url,
    apps: cluster.apps,
    writers: [client(1), client(2), client(3)],
    reader: client(4),
    direct: client(5),
    prefix: 'outage',
    running: () => performance.now() < until,
    phase: () => 'outage',
  });
  const { sent } = load;
  await sleep(until - performance.now());
  await cluster.redis.start();
  const returnedAt = performance.now();
  await load.done;

  // Recovery: sign-ups (through nginx, and straight to each instance, to tell the app's own
  // recovery from nginx's failover bookkeeping) and cross-instance events, each polled on its own.
  const recoveryDeadline = returnedAt + 20_000;
  const pollUntilOk = async (attempt: () => Promise<boolean>): Promise<number | undefined> => {
    while (performance.now() < recoveryDeadline) {
      if (await attempt()) return performance.now() - returnedAt;
      await sleep(100);
    }
    return undefined;
  };
  const signsUp = (base: string) => () =>
    signUpUser(base, 'back').then(
      () => true,
      () => false,
    );
  const [signUpBackMs, crossBackMs, ...signUpDirectMs] = await Promise.all([
    pollUntilOk(signsUp(url)),
    pollUntilOk(() => crossInstance(1000)),
    ...cluster.apps.map((app) => pollUntilOk(signsUp(app.url))),
  ]);

  // No false 2xx: every acknowledged pin is readable, every acknowledged sign-up is a session.
  const acknowledged = sent.filter((s) => s.answer.status >= 200 && s.answer.status < 300 && (s.title !== undefined || s.kind === 'sign up'));
  const falseAcks = (
    await mapLimit(acknowledged, 8, async (s) => {
      if (s.title !== undefined) {
        const id = (s.answer.response?.body as Pin | undefined)?.id;
        const read = await new ApiClient(url).get<Pin>(`/api/pins/${id}`);
        return read.status === 200 && read.body.title === s.title ? undefined : `${s.title}: ${read.status}`;
      }
      const me = await (s.client as ApiClient).get<{ user: User | null }>('/api/auth/');
      return me.body.user ? undefined : `sign-up acknowledged but no session: ${JSON.stringify(me.body)}`;
    })
  ).filter((entry) => entry !== undefined);

  // Sessions survive the restart (append-only file).
  const stillSignedIn = await Promise.all(users.map(({ client }) => client.get<{ user: User | null }>('/api/auth/')));
  const signedOut = stillSignedIn.filter((me, i) => me.body.user?.id !== users[i]?.user.id).length;

  const answers = sent.map((s) => s.answer);
  const maxMs = Math.max(...answers.map((a) => a.ms));
  const byKind = Object.fromEntries(
    LOAD_KINDS.map((kind) => [
      kind,
      histogram(sent.filter((s) => s.kind === kind).map((s) => s.answer)),
    ]),
  );
  const bad = sent.filter((s) => s.answer.status !== 503 && !(s.answer.status >= 200 && s.answer.status < 300));
  console.log(`Redis down for ${((returnedAt - stoppedAt) / 1000).toFixed(1)} s: ${answers.length} requests, latency ${summary(answers.map((a) => a.ms))}`);
  console.log(`statuses during the outage: ${JSON.stringify(byKind)}`);
  for (const s of bad.slice(0, 10)) {
    console.log(`  ${s.kind} → ${s.answer.status} after ${s.answer.ms.toFixed(0)} ms: ${s.answer.error ?? JSON.stringify(s.answer.response?.body).slice(0, 200)}`);
  }
  const ms = (value: number | undefined) => (value === undefined ? 'never (20 s)' : `${value.toFixed(0)} ms`);
  console.log(
    `recovery after Redis returned: sign-up through nginx ${ms(signUpBackMs)} (straight to the instances: ${signUpDirectMs.map(ms).join(', ')}), cross-instance event ${ms(crossBackMs)}`,
  );
  console.log(
    `acknowledged writes during the outage: ${acknowledged.length}, false: ${falseAcks.length}; sessions kept: ${users.length - signedOut}/${users.length}; socket disconnects: ${disconnects.length} ${JSON.stringify(disconnects.slice(0, 5))}`,
  );

  // DESIGN §7/§8: the process never dies from a dependency outage; it recovers by itself.
  const crashed = cluster.apps.filter((app) => app.child.exitCode !== null || app.child.signalCode !== null);
  console.log(`instances still running: ${cluster.apps.length - crashed.length}/${cluster.apps.length}${crashed.map((app) => `; port ${app.port} exited ${app.child.exitCode ?? app.child.signalCode}: ${app.logs.filter((line) => !line.startsWith('{')).slice(0, 5).join(' | ')}`).join('')}`);
  expect(crashed.map((app) => `instance on port ${app.port} exited (${app.child.exitCode ?? app.child.signalCode})`)).toEqual([]);
  expect(maxMs).toBeLessThanOrEqual(5000);
  expect(falseAcks).toEqual([]);
  expect(bad.map((s) => `${s.kind} → ${s.answer.status}`)).toEqual([]);
  expect(byKind['create pin']?.['503']).toBeGreaterThan(0);
  expect(signUpBackMs).toBeLessThanOrEqual(10_000);
  expect(crossBackMs).toBeLessThanOrEqual(10_000);
  expect(signedOut).toBe(0);
  expect(disconnects).toEqual([]);
});
