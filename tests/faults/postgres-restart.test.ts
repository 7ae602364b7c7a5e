import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient } from '../support/client.ts';
import { type FaultCluster, histogram, startFaultCluster } from '../support/faults.ts';
import type { TestSocket } from '../support/sockets.ts';
import { LOAD_KINDS, liveSocket, mapLimit, mixedLoad, sameSessionOn, signUpMany, sleep, summary, timed } from './helpers.ts';

// The private Postgres stops (`pg_ctl stop -m fast`: every connection is cut) for ~3 s and starts
// again. DESIGN §8: answers stay bounded (503 with the error shape, no 2xx for a write that was
// not stored), and the instances' pools recover by themselves. Writers keep writing throughout;
// every write answered 2xx must be readable afterwards.

const OUTAGE_MS = 3000;
type Phase = 'before' | 'outage' | 'after';
let cluster: FaultCluster;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  cluster = await startFaultCluster();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

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

  let phase: Phase = 'before';
  let stopping = false;
  const anonymous = new ApiClient(url);
  const client = (i: number) => (users[i] as { client: ApiClient }).client;
  // Writers run before, during and after the outage.
  const load = mixedLoad({
    url,
    apps: cluster.apps,
    writers: [client(0), client(1), client(2)],
    reader: client(3),
    direct: client(3),
    prefix: 'pg',
    running: () => !stopping,
    phase: () => phase,
  });
  const { sent } = load;

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
  await load.done;

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
  const byKind = (phaseName: Phase) =>
    Object.fromEntries(
      LOAD_KINDS.map((kind) => [
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
