import { beforeAll, expect, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient } from '../support/client.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { histogram } from '../support/faults.ts';
import { useFaultCluster } from '../support/use-fault-cluster.ts';
import { crashedInstances, LOAD_KINDS, mapLimit, mixedLoad, sameSessionOn, signUpMany, sleep, summary, timed } from './helpers.ts';

// The private Postgres stops (`pg_ctl stop -m fast`: every connection is cut) for ~3 s and starts
// again. docs/operations.md (Faults): answers stay bounded (503 with the error shape, no 2xx for a
// write that was not stored), and the instances' pools recover by themselves. Writers keep writing
// throughout; every write answered 2xx must be readable afterwards. The scenario runs once; each
// test checks one promise.

const faults = useFaultCluster();
let scene: Awaited<ReturnType<typeof restartPostgresUnderLoad>>;
beforeAll(async () => {
  scene = await restartPostgresUnderLoad();
});

const OUTAGE_MS = 3000;
type Phase = 'before' | 'outage' | 'after';

/**
 * Five users with sockets; every kind of request is sent before, during and after an outage of
 * OUTAGE_MS. After Postgres returns the scenario waits (up to the bound) until a write through each
 * instance (each has its own pool) and through nginx succeeds, then keeps the load on for a second.
 */
async function restartPostgresUnderLoad() {
  const { cluster } = faults;
  const { url } = cluster;
  const users = await signUpMany(url, 5, 'pg');
  const client = (i: number) => (users[i] as { client: ApiClient }).client;
  const disconnects: string[] = [];
  for (const [i, { client }] of users.entries()) {
    const socket = await faults.socket(url, client);
    socket.on('disconnect', (reason) => disconnects.push(`user${i}: ${reason}`));
  }

  let phase: Phase = 'before';
  let stopping = false;
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

  await sleep(1000);
  phase = 'outage';
  await cluster.postgres.stop();
  const stoppedAt = performance.now();
  await sleep(OUTAGE_MS);
  await cluster.postgres.start();
  const returnedAt = performance.now();
  phase = 'after';

  const probes = [...cluster.apps.map((app) => sameSessionOn(app.url, client(4))), client(4)];
  const writesEverywhere = async () => {
    const answers = await Promise.all(probes.map((probe) => timed(() => probe.post('/api/pins/', { title: 'probe', imageUrl: 'https://a.test/q.png' }), 5000)));
    return answers.every((a) => a.status === 201);
  };
  const recoveredMs = await timeUntil(BOUNDS.postgresRecoveryMs, writesEverywhere, returnedAt);
  await sleep(1000);
  stopping = true;
  await load.done;
  return { cluster, url, sent: load.sent, disconnects, outageMs: returnedAt - stoppedAt, recoveredMs };
}

const isOk = (status: number) => status >= 200 && status < 300;

test('every answer during the outage is a 2xx or a 503, within the bound', () => {
  const { sent, outageMs } = scene;
  const outage = sent.filter((s) => s.phase === 'outage');
  const byKind = (phase: Phase) => JSON.stringify(Object.fromEntries(LOAD_KINDS.map((kind) => [kind, histogram(sent.filter((s) => s.phase === phase && s.kind === kind).map((s) => s.answer))])));
  const bad = outage.filter((s) => s.answer.status !== 503 && !isOk(s.answer.status));
  console.log(`Postgres down for ${(outageMs / 1000).toFixed(1)} s: ${outage.length} requests sent meanwhile, latency ${summary(outage.map((s) => s.answer.ms))}`);
  console.log(`statuses during the outage: ${byKind('outage')}`);
  console.log(`statuses after it: ${byKind('after')}`);
  for (const s of bad.slice(0, 10)) {
    console.log(`  ${s.kind} → ${s.answer.status} after ${s.answer.ms.toFixed(0)} ms: ${s.answer.error ?? JSON.stringify(s.answer.response?.body).slice(0, 200)}`);
  }
  expect(bad.map((s) => `${s.kind} → ${s.answer.status}`)).toEqual([]);
  expect(outage.filter((s) => s.answer.ms > BOUNDS.answerDuringOutageMs).map((s) => `${s.kind}: ${s.answer.ms.toFixed(0)} ms`)).toEqual([]);
});

test('the pools recover by themselves: a write through each instance and through nginx succeeds again', () => {
  const { recoveredMs } = scene;
  console.log(`recovery (a write through each instance and through nginx) ${formatMs(recoveredMs, BOUNDS.postgresRecoveryMs)} after Postgres returned`);
  expect(recoveredMs).toBeDefined();
});

test('every acknowledged write is readable afterwards (0 lost)', async () => {
  const { sent, url, disconnects } = scene;
  const anonymous = new ApiClient(url);
  const writes = sent.filter((s) => s.title !== undefined);
  const acknowledged = writes.filter((s) => isOk(s.answer.status));
  const lost = (
    await mapLimit(acknowledged, 8, async (s) => {
      const id = (s.answer.response?.body as Pin | undefined)?.id;
      const read = await anonymous.get<Pin>(`/api/pins/${id}`);
      return read.status === 200 && read.body.title === s.title ? undefined : `${s.title} (#${id}): ${read.status}`;
    })
  ).filter((entry) => entry !== undefined);
  console.log(`writes: ${writes.length} sent, ${acknowledged.length} acknowledged, ${lost.length} lost; socket disconnects: ${disconnects.length}`);
  expect(lost).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(0);
});

test('no instance dies from the outage (docs/operations.md)', () => {
  const { apps } = scene.cluster;
  const crashed = crashedInstances(apps);
  console.log(`instances still running: ${apps.length - crashed.length}/${apps.length}`);
  expect(crashed).toEqual([]);
});
