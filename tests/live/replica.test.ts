import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import type { SearchResult } from '../../contract/search.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { type AppProcess, startAppProcess } from '../support/processes.ts';
import { replicaAppEnv, type ReplicatedPostgres, startReplicatedPostgres, writeThenReadPairs } from '../support/replica.ts';

// Reads from a streaming replica with read-your-writes (docs/operations.md#a-read-replica): a
// private primary and its replica (tests/support/replica.ts), one instance reading from both. The
// `pinboard-read-from` header says which database answered a read.

let databases: ReplicatedPostgres;
let app: AppProcess;
const extra: AppProcess[] = [];

// A paused replica must stay in use for (b): its lag is the age of its last replayed commit.
const envFor = (maxLagMs: number) => replicaAppEnv(databases, { REPLICA_MAX_LAG_MS: String(maxLagMs), JOB_WORKERS: 'false' });

beforeAll(async () => {
  databases = await startReplicatedPostgres();
  app = await startAppProcess(envFor(600_000));
}, 120_000);

afterAll(async () => {
  await Promise.all([app?.stop(), ...extra.map((one) => one.stop())]);
  await databases?.close();
});

const from = (response: { headers: Headers }) => response.headers.get('pinboard-read-from');
const search = (client: ApiClient, word: string) => client.get<SearchResult>(`/api/search?q=${word}`);
const newPin = (client: ApiClient, title: string, visibility: 'public' | 'private' = 'private') => client.post<Pin>('/api/pins/', { title, imageUrl: 'https://a.test/x.png', visibility });

test('(a) 500 write-then-read pairs: every read shows its own write', async () => {
  const { ms, violations, answeredBy } = await writeThenReadPairs(app.url, { pairs: 500, writers: 5 });
  console.log(
    `500 write-then-read pairs in ${Math.round(ms)} ms (5 writers at once); reads answered by the replica ${answeredBy.replica}, the primary ${answeredBy.primary}; violations ${violations.length}`,
  );
  expect(violations).toEqual([]);
  expect(answeredBy.replica + answeredBy.primary).toBe(500);
  // 1,000 requests: ~45 s on a busy 2-core machine; the bound is for when it is busier still.
}, 300_000);

test('(b) replay paused: a reader who did not write reads the replica, the writer reads their write', async () => {
  const { client: writer } = await signUpUser(app.url, 'paused');
  const word = `paused${Date.now()}`;
  const created = await newPin(writer, `${word} before`, 'public');
  await databases.replica.caughtUp();
  await databases.replica.pauseReplay();
  try {
    expect((await writer.put<Pin>(`/api/pins/${created.body.id}`, { title: `${word} after` })).status).toBe(200);
    const own = await search(writer, word);
    expect(own.body.pins.map((pin) => pin.title)).toEqual([`${word} after`]);
    expect(from(own)).toBe('primary');

    const visitor = new ApiClient(app.url);
    const stale = await search(visitor, word);
    expect(stale.body.pins.map((pin) => pin.title)).toEqual([`${word} before`]);
    expect(from(stale)).toBe('replica');

    // An instance whose lag bound is 1 s stops using the paused replica once it is that far behind.
    const strict = await startAppProcess(envFor(1000));
    extra.push(strict);
    const fresh = await eventually(
      () => search(new ApiClient(strict.url), word),
      (answer) => from(answer) === 'primary',
      { boundMs: 30_000 },
    );
    expect(fresh.body.pins.map((pin) => pin.title)).toEqual([`${word} after`]);
  } finally {
    await databases.replica.resumeReplay();
  }
  const caughtUp = await eventually(
    () => search(new ApiClient(app.url), word),
    (answer) => answer.body.pins[0]?.title === `${word} after`,
  );
  expect(from(caughtUp)).toBe('replica');
});

test('(c) replica stopped: reads still answer, from the primary, and the replica is used again once back', async () => {
  const { client: writer } = await signUpUser(app.url, 'stopped');
  const word = `stopped${Date.now()}`;
  await newPin(writer, `${word} one`, 'public');
  const visitor = new ApiClient(app.url);
  await databases.replica.stop();
  try {
    const statuses: number[] = [];
    const by: Array<string | null> = [];
    for (let i = 0; i < 50; i++) {
      const answer = await search(visitor, word);
      statuses.push(answer.status);
      by.push(from(answer));
      expect(answer.body.pins.map((pin) => pin.title)).toEqual([`${word} one`]);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(by.every((one) => one === 'primary')).toBe(true);
  } finally {
    await databases.replica.start();
  }
  await eventually(
    () => search(visitor, word),
    (answer) => from(answer) === 'replica',
    { boundMs: 30_000 },
  );
});
