import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Pin, PinList } from '../../contract/pins.ts';
import type { SearchResult } from '../../contract/search.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { percentile, queryOnce } from '../support/faults.ts';
import { type AppProcess, startAppProcess } from '../support/processes.ts';
import { replicaAppEnv, type ReplicatedPostgres, startReplicatedPostgres } from '../support/replica.ts';
import { sleep } from './helpers.ts';

// The read replica restarts (`pg_ctl stop -m fast`, ~3 s down, start) under a stream of reads and
// writes (docs/operations.md#a-read-replica): no request fails (reads fall back to the primary,
// a replica read cut mid-query is run again there), no write is lost, and a writer's read-back
// always shows its write. The scenario runs once; each test checks one promise.

const OUTAGE_MS = 3000;
let databases: ReplicatedPostgres;
let app: AppProcess;
let scene: Awaited<ReturnType<typeof restartReplicaUnderLoad>>;

beforeAll(async () => {
  databases = await startReplicatedPostgres();
  app = await startAppProcess(replicaAppEnv(databases, { JOB_WORKERS: 'false' }), { name: 'app', echo: false });
  scene = await restartReplicaUnderLoad();
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await databases?.close();
});

async function restartReplicaUnderLoad() {
  const writers = await Promise.all(Array.from({ length: 3 }, (_, i) => signUpUser(app.url, `rr${i}`)));
  const visitors = Array.from({ length: 2 }, () => new ApiClient(app.url));
  const failed: string[] = [];
  const unseen: string[] = [];
  const written: number[] = [];
  const by = { replica: 0, primary: 0 };
  const times: number[] = [];
  let running = true;
  const timed = async <T extends { status: number; headers: Headers }>(send: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const answer = await send();
    times.push(performance.now() - started);
    return answer;
  };
  const note = (what: string, response: { status: number; headers: Headers }) => {
    if (response.status >= 400) failed.push(`${what}: ${response.status}`);
    const from = response.headers.get('pinboard-read-from');
    if (from === 'replica' || from === 'primary') by[from]++;
  };

  const loops = [
    ...writers.map(async ({ client, user }, w) => {
      for (let i = 0; running; i++) {
        const title = `restart w${w} ${i}`;
        const created = await timed(() => client.post<Pin>('/api/pins/', { title, imageUrl: 'https://a.test/x.png', visibility: 'public' }));
        note('create', created);
        if (created.status !== 201) continue;
        written.push(created.body.id);
        const own = await timed(() => client.get<PinList>(`/api/pins/?userId=${user.id}&limit=3`));
        note('own list', own);
        if (own.status === 200 && own.body.pins[0]?.id !== created.body.id) unseen.push(`${title}: own list starts with ${own.body.pins[0]?.id}`);
      }
    }),
    ...visitors.map(async (client) => {
      while (running) {
        note('search', await timed(() => client.get<SearchResult>('/api/search?q=restart')));
        note('shuffle', await timed(() => client.get<PinList>('/api/pins/?order=shuffle&seed=7')));
      }
    }),
  ];

  await sleep(1000);
  await databases.replica.stop();
  const stoppedAt = performance.now();
  await sleep(OUTAGE_MS);
  await databases.replica.start();
  console.log(`replica down ${Math.round(performance.now() - stoppedAt)} ms`);
  await databases.replica.caughtUp();
  await sleep(2000);
  running = false;
  await Promise.all(loops);
  const ms = (p: number) => Math.round(percentile(times, p));
  console.log(
    `${times.length} requests (p50 ${ms(50)} ms, p99 ${ms(99)} ms, max ${ms(100)} ms), ${written.length} writes; reads answered by the replica ${by.replica}, the primary ${by.primary}; failed ${failed.length}`,
  );
  return { failed, unseen, written, by };
}

test('no request fails while the replica restarts', () => {
  expect(scene.failed).toEqual([]);
});

test('every write is stored, and every writer read back its own', async () => {
  expect(scene.unseen).toEqual([]);
  const rows = await queryOnce<{ id: number }>(databases.databaseUrl, 'select id from pins where id = any($1::int[])', [scene.written]);
  expect(rows.length).toBe(scene.written.length);
  expect(scene.written.length).toBeGreaterThan(0);
});

test('the replica answers reads again once it is back', async () => {
  const visitor = new ApiClient(app.url);
  let from: string | null = null;
  for (let i = 0; i < 100 && from !== 'replica'; i++) {
    from = (await visitor.get('/api/search?q=restart')).headers.get('pinboard-read-from');
    if (from !== 'replica') await sleep(100);
  }
  expect(from).toBe('replica');
});
