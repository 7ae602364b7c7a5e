import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient } from '../support/client.ts';
import { type FaultCluster, histogram, startFaultCluster } from '../support/faults.ts';
import type { TestSocket } from '../support/sockets.ts';
import { type Answer, liveSocket, mapLimit, repeatWhile, sameSessionOn, signUpMany, sleep, summary, timed } from './helpers.ts';

// The private Postgres stops (`pg_ctl stop -m fast`: every connection is cut) for ~3 s and starts
// again. DESIGN §8: answers stay bounded (503 with the error shape, no 2xx for a write that was
// not stored), and the instances' pools recover by themselves. Writers keep writing throughout;
// every write answered 2xx must be readable afterwards.

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

// Through nginx, and straight to the instances (nginx may answer for them once it has marked both
// failed, so the direct requests are what shows the app's own fail-fast answers).
const KINDS = ['create pin', 'list pins', 'who am i', 'sign up', 'readyz', 'create pin (direct)', 'list pins (direct)'] as const;
type Kind = (typeof KINDS)[number];

interface Sent {
  kind: Kind;
  phase: 'before' | 'outage' | 'after';
  answer: Answer<unknown>;
  title?: string;
}

test('Postgres restart: bounded answers, recovery within 10 s, 0 lost acknowledged writes', async () => {
  onTestFailed(() => cluster.printLogs());
  const url = cluster.url;
  const users = await signUpMany(url, 5, 'pg');
  const disconnects: string[] = [];
  for (const [i, { client }] of users.entries()) {
    const socket = await liveSocket(url, client);
    sockets.push(socket);
    socket.on('disconnect', (reason) => disconnects.push(`user${i}: ${reason}`));
  }

  const sent: Sent[] = [];
  let phase: Sent['phase'] = 'before';
  let stopping = false;
  const running = () => !stopping;
  let n = 0;
  const anonymous = new ApiClient(url);
  const loops = [
    // Writers run before, during and after the outage.
    ...users.slice(0, 3).map(({ client }) =>
      repeatWhile(running, async () => {
        const title = `pg-${++n}`;
        const at = phase;
        sent.push({ kind: 'create pin', phase: at, title, answer: await timed(() => client.post('/api/pins/', { title, imageUrl: 'https://a.test/p.png' })) });
        await sleep(30);
      }),
    ),
    repeatWhile(running, async () => {
      const at = phase;
      sent.push({ kind: 'list pins', phase: at, answer: await timed(() => anonymous.get('/api/pins/')) });
      sent.push({ kind: 'readyz', phase: at, answer: await timed(() => anonymous.get('/readyz')) });
      await sleep(50);
    }),
    repeatWhile(running, async () => {
      const at = phase;
      const client = (users[3] as { client: ApiClient }).client;
      sent.push({ kind: 'who am i', phase: at, answer: await timed(() => client.get('/api/auth/')) });
      const fresh = new ApiClient(url);
      const tag = `pgout${process.pid}x${++n}`;
      sent.push({
        kind: 'sign up',
        phase: at,
        answer: await timed(() => fresh.post('/api/auth/signup', { email: `${tag}@example.test`, username: tag, password: 'correct horse battery' })),
      });
      await sleep(50);
    }),
    ...cluster.apps.map((app) => {
      const client = sameSessionOn(app.url, (users[3] as { client: ApiClient }).client);
      const anonymousThere = new ApiClient(app.url);
      return repeatWhile(running, async () => {
        const at = phase;
        const title = `pg-${++n}`;
        sent.push({ kind: 'create pin (direct)', phase: at, title, answer: await timed(() => client.post('/api/pins/', { title, imageUrl: 'https://a.test/p.png' })) });
        sent.push({ kind: 'list pins (direct)', phase: at, answer: await timed(() => anonymousThere.get('/api/pins/')) });
        await sleep(50);
      });
    }),
  ];

  await sleep(1000);
  phase = 'outage';
  await cluster.postgres.stop();
  const stoppedAt = performance.now();
  await sleep(OUTAGE_MS);
  await cluster.postgres.start();
  const returnedAt = performance.now();
  phase = 'after';

  // Recovery: a write through each instance directly (each has its own pool) and through nginx.
  const probes = [
    ...cluster.apps.map((app) => sameSessionOn(app.url, (users[4] as { client: ApiClient }).client)),
    (users[4] as { client: ApiClient }).client,
  ];
  let recoveredMs: number | undefined;
  while (recoveredMs === undefined && performance.now() < returnedAt + 20_000) {
    const answers = await Promise.all(probes.map((probe) => timed(() => probe.post('/api/pins/', { title: 'probe', imageUrl: 'https://a.test/q.png' }), 5000)));
    if (answers.every((a) => a.status === 201)) recoveredMs = performance.now() - returnedAt;
    else await sleep(100);
  }
  await sleep(1000);
  stopping = true;
  await Promise.all(loops);

  const writes = sent.filter((s) => s.title !== undefined);
  const acknowledged = writes.filter((s) => s.answer.status >= 200 && s.answer.status < 300);
  const lost = (
    await mapLimit(acknowledged, 8, async (s) => {
      const id = (s.answer.response?.body as Pin | undefined)?.id;
      const read = await anonymous.get<Pin>(`/api/pins/${id}`);
      return read.status === 200 && read.body.title === s.title ? undefined : `${s.title} (#${id}): ${read.status}`;
    })
  ).filter((entry) => entry !== undefined);

  const outage = sent.filter((s) => s.phase === 'outage');
  const outageMax = Math.max(...outage.map((s) => s.answer.ms));
  const byKind = (phaseName: Sent['phase']) =>
    Object.fromEntries(
      KINDS.map((kind) => [
        kind,
        histogram(sent.filter((s) => s.phase === phaseName && s.kind === kind).map((s) => s.answer)),
      ]),
    );
  const bad = outage.filter((s) => s.answer.status !== 503 && !(s.answer.status >= 200 && s.answer.status < 300));
  console.log(`Postgres down for ${((returnedAt - stoppedAt) / 1000).toFixed(1)} s: ${outage.length} requests sent meanwhile, latency ${summary(outage.map((s) => s.answer.ms))}`);
  console.log(`statuses during the outage: ${JSON.stringify(byKind('outage'))}`);
  console.log(`statuses after it: ${JSON.stringify(byKind('after'))}`);
  for (const s of bad.slice(0, 10)) {
    console.log(`  ${s.kind} → ${s.answer.status} after ${s.answer.ms.toFixed(0)} ms: ${s.answer.error ?? JSON.stringify(s.answer.response?.body).slice(0, 200)}`);
  }
  console.log(
    `recovery (a write through each instance and through nginx) ${recoveredMs?.toFixed(0) ?? 'never (20 s)'} ms after Postgres returned; ` +
      `writes: ${writes.length} sent, ${acknowledged.length} acknowledged, ${lost.length} lost; socket disconnects: ${disconnects.length}`,
  );

  // DESIGN §7/§8: the process never dies from a dependency outage; it recovers by itself.
  const crashed = cluster.apps.filter((app) => app.child.exitCode !== null || app.child.signalCode !== null);
  console.log(`instances still running: ${cluster.apps.length - crashed.length}/${cluster.apps.length}${crashed.map((app) => `; port ${app.port} exited ${app.child.exitCode ?? app.child.signalCode}: ${app.logs.filter((line) => !line.startsWith('{')).slice(0, 5).join(' | ')}`).join('')}`);
  expect(crashed.map((app) => `instance on port ${app.port} exited (${app.child.exitCode ?? app.child.signalCode})`)).toEqual([]);
  expect(outageMax).toBeLessThanOrEqual(5000);
  expect(bad.map((s) => `${s.kind} → ${s.answer.status}`)).toEqual([]);
  expect(recoveredMs).toBeLessThanOrEqual(10_000);
  expect(lost).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(0);
});
