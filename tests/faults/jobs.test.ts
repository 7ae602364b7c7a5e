import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { JobRecord } from '../../backend/jobs/queue.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createTestDatabase } from '../support/database.ts';
import { formatMs, timeUntil } from '../support/eventually.ts';
import { type AppProcess, startAppProcess } from '../support/processes.ts';
import type { TestJobRun } from '../support/test-jobs.ts';

// The job queue across processes (tests/support/job-app.ts: the app with the test job): a worker
// killed mid-job (SIGKILL) leaves its job to run again once its lease has passed — on the other
// instance, or on the same embedded data after a restart; instances sharing a Postgres never run
// one job twice; a SIGTERM lets a running job finish before the process exits.

/** Short leases, so a dead worker's job is taken up again within seconds. */
const LEASE_SECONDS = 4;
/** A lease, a sweep (a quarter lease), a retry's backoff (≤ 2 s) and a poll, times a margin. */
const EVENTUALLY_MS = 60_000;
const ENV = {
  HOST: '127.0.0.1',
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  AUTO_SEED: 'false',
  JOB_LEASE_SECONDS: String(LEASE_SECONDS),
  JOB_POLL_SECONDS: '0.5',
  JOB_CONCURRENCY: '2',
};

const started: AppProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.stop()));
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startJobApp(env: Record<string, string>, name: string): Promise<AppProcess> {
  const app = await startAppProcess({ ...ENV, ...env }, { entry: 'tests/support/job-app.ts', name, echo: true });
  started.push(app);
  return app;
}

/** A fresh Postgres database, migrated (as `npm run db:migrate` would), for instances to share. */
async function postgresDatabase(): Promise<string> {
  const { url, drop } = await createTestDatabase();
  cleanups.push(drop);
  const database = await openDatabase({ kind: 'postgres', url });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  return url;
}

let refs = 0;
/** Per instance: the asks waiting for their answer, by ref (one 'message' listener per process). */
const waiting = new WeakMap<AppProcess, Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>>();

/** Asks an instance over IPC (see job-app.ts). */
function ask<T>(app: AppProcess, message: { ask: 'send' | 'get' | 'runs'; data?: unknown; id?: string; key?: string }): Promise<T> {
  let pending = waiting.get(app);
  if (!pending) {
    const asks = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
    app.child.on('message', (reply: unknown) => {
      const r = reply as { type?: string; ref?: number; result?: unknown; error?: string };
      const waiter = r.type === 'job' && r.ref !== undefined ? asks.get(r.ref) : undefined;
      if (!waiter || r.ref === undefined) return;
      asks.delete(r.ref);
      if (r.error) waiter.reject(new Error(r.error));
      else waiter.resolve(r.result);
    });
    waiting.set(app, asks);
    pending = asks;
  }
  const ref = ++refs;
  const asks = pending;
  return new Promise<T>((resolve, reject) => {
    asks.set(ref, { resolve: (result) => resolve(result as T), reject });
    app.child.send({ type: 'job', ref, ...message });
  });
}

const send = (app: AppProcess, data: { key: string; sleepMs?: number; failTimes?: number }) => ask<string>(app, { ask: 'send', data });
const stateOf = async (app: AppProcess, id: string) => (await ask<JobRecord | null>(app, { ask: 'get', id }))?.state;
async function runsOf(app: AppProcess, key?: string): Promise<TestJobRun[]> {
  const runs = await ask<Array<TestJobRun & { started_at: string; ended_at: string | null }>>(app, { ask: 'runs', ...(key ? { key } : {}) });
  return runs.map((run) => ({ ...run, started_at: new Date(run.started_at), ended_at: run.ended_at ? new Date(run.ended_at) : null }));
}

async function until(what: string, check: () => Promise<boolean>, since?: number): Promise<number | undefined> {
  const ms = await timeUntil(EVENTUALLY_MS, check, since);
  console.log(`${what}: ${formatMs(ms, EVENTUALLY_MS)}`);
  return ms;
}

describe('a worker killed mid-job (SIGKILL)', () => {
  test('Postgres: the other instance runs the job once the lease has passed', async () => {
    const url = await postgresDatabase();
    const apps = [await startJobApp({ DATABASE_URL: url }, 'jobs-a'), await startJobApp({ DATABASE_URL: url }, 'jobs-b')];
    const [first] = apps as [AppProcess, AppProcess];
    const id = await send(first, { key: 'killed', sleepMs: 2_500 });
    expect(await until('job started', async () => (await runsOf(first, 'killed')).length === 1)).toBeDefined();
    const [run] = await runsOf(first, 'killed');
    const victim = apps.find((app) => app.child.pid === run?.pid);
    const survivor = apps.find((app) => app !== victim);
    if (!victim || !survivor) throw new Error(`the job ran in neither instance (pid ${run?.pid})`);
    const killedAt = performance.now();
    victim.child.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');

    const doneMs = await until('job completed after the kill', async () => (await stateOf(survivor, id)) === 'completed', killedAt);
    expect(doneMs).toBeDefined();
    const runs = await runsOf(survivor, 'killed');
    expect(runs.map((r) => [r.pid, r.retry_count, r.outcome])).toEqual([
      [victim.child.pid, 0, null],
      [survivor.child.pid, 1, 'done'],
    ]);
    // The second attempt began only after the first one's lease had run out.
    const first0 = runs[0] as TestJobRun;
    const second = runs[1] as TestJobRun;
    console.log(`second attempt began ${second.started_at.getTime() - first0.started_at.getTime()} ms after the first`);
    expect(second.started_at.getTime() - first0.started_at.getTime()).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000);
  });

  // No PGlite variant: a SIGKILL may lose PGlite's last commits (it does not fsync each one), so
  // whether the killed job still exists after the restart is up to the kill's timing; in CI the
  // job was lost twice in three runs. The embedded mode is one process: its jobs are retried
  // after a crash when they were written out, and the Postgres test above covers the lease.
});

test('two instances on one Postgres never run the same job at once, and every job runs once', async () => {
  const url = await postgresDatabase();
  const [a, b] = [await startJobApp({ DATABASE_URL: url }, 'jobs-a'), await startJobApp({ DATABASE_URL: url }, 'jobs-b')];
  // A third instance only sends (JOB_WORKERS=false): it runs none of them.
  const sender = await startJobApp({ DATABASE_URL: url, JOB_WORKERS: 'false' }, 'jobs-sender');
  const count = 60;
  // Sent through all three, so both workers wake at once and compete for the same jobs.
  const ids = await Promise.all(Array.from({ length: count }, (_, i) => send([a, b, sender][i % 3] as AppProcess, { key: `shared-${i}`, sleepMs: 100 })));
  const doneMs = await until(`${count} jobs completed`, async () => (await runsOf(a)).filter((r) => r.outcome === 'done').length === count);
  expect(doneMs).toBeDefined();
  const runs = await runsOf(a);
  const perJob = new Map<string, number>();
  for (const run of runs) perJob.set(run.job_id, (perJob.get(run.job_id) ?? 0) + 1);
  const byInstance = new Map<number, number>();
  for (const run of runs) byInstance.set(run.pid, (byInstance.get(run.pid) ?? 0) + 1);
  console.log(`runs per instance: ${[...byInstance.values()].join(' + ')} = ${runs.length}`);
  expect(byInstance.has(sender.child.pid as number)).toBe(false);
  expect(runs).toHaveLength(count);
  expect([...perJob.keys()].sort()).toEqual([...ids].sort());
  expect([...perJob.values()].every((n) => n === 1)).toBe(true);
  for (const id of ids.slice(0, 5)) expect(await stateOf(b, id)).toBe('completed');
});

test('SIGTERM lets a running job finish, then the process exits 0', async () => {
  const url = await postgresDatabase();
  const app = await startJobApp({ DATABASE_URL: url }, 'jobs-term');
  const id = await send(app, { key: 'finishing', sleepMs: 2_000 });
  expect(await until('job started', async () => (await runsOf(app, 'finishing')).length === 1)).toBeDefined();
  const termAt = performance.now();
  app.child.kill('SIGTERM');
  const exit = await app.exited;
  console.log(`exited ${(performance.now() - termAt).toFixed(0)} ms after SIGTERM with ${JSON.stringify(exit)}`);
  expect(exit).toEqual({ code: 0, signal: null });

  const after = await startJobApp({ DATABASE_URL: url }, 'jobs-after');
  expect(await stateOf(after, id)).toBe('completed');
  expect((await runsOf(after, 'finishing')).map((r) => [r.pid, r.outcome])).toEqual([[app.child.pid, 'done']]);
});
