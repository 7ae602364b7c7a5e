import { PgBoss } from 'pg-boss';
import { beforeAll, describe, expect, test } from 'vitest';
import { poolDatabase } from '../../backend/jobs/adapters.ts';
import type { JobRecord } from '../../backend/jobs/queue.ts';
import { ApiClient } from '../support/client.ts';
import { formatMs, timeUntil } from '../support/eventually.ts';
import { createTestJobTable, testJobRuns, testJobSetup } from '../support/test-jobs.ts';
import { useTestServer } from '../support/use-test-server.ts';

// The job queue (backend/jobs/) on the backing this project runs on (Postgres, or PGlite's one
// connection): jobs sent in a transaction share its fate, failures are retried with backoff up to a
// limit, a bad payload fails at once, and a running handler holds up no request.

/** Generous: a job is polled for at least every JOB_POLL_SECONDS; retries add their backoff. */
const EVENTUALLY_MS = 30_000;
const NAME = 'test.record';

const server = useTestServer({ jobs: testJobSetup, env: { JOB_POLL_SECONDS: '0.5', JOB_CONCURRENCY: '2' } });
beforeAll(async () => {
  await createTestJobTable(server.server.database.db);
});

const jobs = () => server.server.jobs;
const db = () => server.server.database.db;

async function stateOf(id: string, name = NAME): Promise<JobRecord> {
  const job = await jobs().get(name, id);
  if (!job) throw new Error(`job ${id} not found`);
  return job;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const ms = await timeUntil(EVENTUALLY_MS, check);
  console.log(`${what}: ${formatMs(ms, EVENTUALLY_MS)}`);
  expect(ms, what).toBeDefined();
}

describe('a job sent inside a transaction', () => {
  test('commits with it and then runs once', async () => {
    const id = await db()
      .transaction()
      .execute((trx) => jobs().send(trx, NAME, { key: 'committed' }));
    await until('committed job completed', async () => (await stateOf(id)).state === 'completed');
    const runs = await testJobRuns(db(), 'committed');
    expect(runs.map((r) => [r.job_id, r.outcome])).toEqual([[id, 'done']]);
    // Kept a day once finished (pg-boss's default is a week: an import job per pin made that week).
    expect((await stateOf(id)).keptAfterFinishSeconds).toBe(24 * 3600);
  });

  test('rolls back with it and never runs', async () => {
    let sent: string | undefined;
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          sent = await jobs().send(trx, NAME, { key: 'rolled-back' });
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(sent).toBeTypeOf('string');
    // A job sent after it, outside any transaction, has run: had the first one existed, the
    // workers would have reached it too.
    const later = await jobs().send(db(), NAME, { key: 'after-rollback' });
    await until('job sent after the rollback completed', async () => (await stateOf(later)).state === 'completed');
    expect(await jobs().get(NAME, sent as string)).toBeNull();
    expect(await testJobRuns(db(), 'rolled-back')).toEqual([]);
  });
});

test('a failing job is retried with growing waits and fails after its retry limit', async () => {
  // retryLimit 2, retryDelaySeconds 1 (TEST_JOBS): three attempts, the second at least 1 s after the
  // first failed, the third at least 2 s after the second (pg-boss: delay × 2^(n-1) × [1, 2)).
  const id = await jobs().send(db(), NAME, { key: 'always-fails', failTimes: 99 });
  const retrying = await timeUntil(EVENTUALLY_MS, async () => (await stateOf(id)).state === 'retry');
  expect(retrying, 'the failed first attempt waits for a retry').toBeDefined();
  await until('failing job failed for good', async () => (await stateOf(id)).state === 'failed');
  const job = await stateOf(id);
  expect(job.retryCount).toBe(2);
  expect(job.retryLimit).toBe(2);
  expect(job.output).toMatchObject({ message: expect.stringContaining('failing on purpose') });
  const runs = await testJobRuns(db(), 'always-fails');
  expect(runs.map((r) => [r.retry_count, r.outcome])).toEqual([
    [0, 'failed'],
    [1, 'failed'],
    [2, 'failed'],
  ]);
  const waits = runs.slice(1).map((run, i) => run.started_at.getTime() - (runs[i]?.ended_at?.getTime() ?? NaN));
  console.log(`waits between attempts: ${waits.map((ms) => `${ms} ms`).join(', ')}`);
  expect(waits[0]).toBeGreaterThanOrEqual(1_000);
  expect(waits[1]).toBeGreaterThanOrEqual(2_000);
  // Nothing more happens after the last attempt.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(await testJobRuns(db(), 'always-fails')).toHaveLength(3);
});

test('a job that fails once is retried and completes', async () => {
  const id = await jobs().send(db(), NAME, { key: 'fails-once', failTimes: 1 });
  await until('job failing once completed', async () => (await stateOf(id)).state === 'completed');
  expect((await testJobRuns(db(), 'fails-once')).map((r) => r.outcome)).toEqual(['failed', 'done']);
  expect((await stateOf(id)).retryCount).toBe(1);
});

test('a payload its schema refuses is not sent', async () => {
  await expect(jobs().send(db(), NAME, { key: '' })).rejects.toThrow(/refused/);
  await expect(jobs().send(db(), 'test.unknown', {})).rejects.toThrow(/unknown job/);
});

test('a job whose payload fails its schema when handled fails at once, without retries', async () => {
  // Written around our checks, as an older version or a hand-made insert could: pg-boss itself, on
  // the same database, with retries to spare.
  const { database } = server.server;
  const foreign = new PgBoss({ db: poolDatabase(database.pool), backend: database.kind, supervise: false, schedule: false, migrate: false, registerInstance: false });
  foreign.on('error', () => {});
  await foreign.start();
  let id: string | null;
  try {
    id = await foreign.send(NAME, { key: 42 }, { retryLimit: 5 });
  } finally {
    await foreign.stop({ close: false, graceful: false });
  }
  expect(id).toBeTypeOf('string');
  await until('bad payload job failed', async () => (await stateOf(id as string)).state === 'failed');
  const job = await stateOf(id as string);
  expect(job.retryCount).toBe(0);
  expect(job.output).toMatchObject({ message: 'invalid payload' });
  expect(await testJobRuns(db(), '42')).toEqual([]);
});

test('an attempt that outruns its lease is stopped (its signal aborted) and counts as failed', async () => {
  // test.lease: a 1-second lease, one retry; each attempt would sleep 20 s.
  const id = await jobs().send(db(), 'test.lease', { key: 'outruns', sleepMs: 20_000 });
  await until('job outrunning its lease failed', async () => (await stateOf(id, 'test.lease')).state === 'failed');
  await until('both attempts saw their signal aborted', async () => (await testJobRuns(db(), 'outruns')).every((r) => r.outcome === 'aborted'));
  const runs = await testJobRuns(db(), 'outruns');
  expect(runs.map((r) => [r.retry_count, r.outcome])).toEqual([
    [0, 'aborted'],
    [1, 'aborted'],
  ]);
  console.log(`attempts lasted ${runs.map((r) => `${(r.ended_at?.getTime() ?? NaN) - r.started_at.getTime()} ms`).join(', ')}`);
});

test('requests are answered while a handler runs (it holds no connection)', async () => {
  const id = await jobs().send(db(), NAME, { key: 'slow', sleepMs: 3_000 });
  await until('slow job started', async () => (await stateOf(id)).state === 'active');
  const client = new ApiClient(server.url);
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push((await client.get('/api/pins/')).status);
  expect(answers).toEqual([200, 200, 200, 200, 200]);
  // Still running when the requests had their answers: they did not wait for it.
  expect((await stateOf(id)).state).toBe('active');
  await until('slow job completed', async () => (await stateOf(id)).state === 'completed');
});

test('many jobs sent at once each run exactly once', async () => {
  const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => jobs().send(db(), NAME, { key: `batch-${i}`, sleepMs: 20 })));
  await until('20 jobs completed', async () => (await Promise.all(ids.map((id) => stateOf(id)))).every((job) => job.state === 'completed'));
  const runs = (await testJobRuns(db())).filter((run) => run.key.startsWith('batch-'));
  expect(runs).toHaveLength(20);
  expect(new Set(runs.map((run) => run.job_id)).size).toBe(20);
});
