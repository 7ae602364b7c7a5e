import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import { defineJobs, type JobContext, jobSetup } from '../../backend/jobs/define.ts';

// A job for the queue's tests: every attempt leaves a row in `test_job_runs` (written with the
// database's clock), so a test sees how often, when, where and how each job ran.

const TestJobData = z.object({
  /** Names the job in test_job_runs. */
  key: z.string().min(1),
  /** How long an attempt takes (stopped early if its signal aborts). */
  sleepMs: z.number().int().min(0).default(0),
  /** The first this-many attempts throw. */
  failTimes: z.number().int().min(0).default(0),
});

export const TEST_JOBS = defineJobs({
  'test.record': { data: TestJobData, retryLimit: 2, retryDelaySeconds: 1 },
  /** The same with a 1-second lease: an attempt that sleeps longer is stopped. */
  'test.lease': { data: TestJobData, retryLimit: 1, retryDelaySeconds: 1, leaseSeconds: 1 },
});

export interface TestJobRun {
  key: string;
  job_id: string;
  retry_count: number;
  pid: number;
  started_at: Date;
  ended_at: Date | null;
  outcome: string | null;
}

/** Creates the table the test job writes to (once per database). */
export async function createTestJobTable(db: Kysely<DB>): Promise<void> {
  await sql`create table if not exists test_job_runs (
    id serial primary key,
    key text not null,
    job_id text not null,
    retry_count int not null,
    pid int not null,
    started_at timestamptz not null default clock_timestamp(),
    ended_at timestamptz,
    outcome text
  )`.execute(db);
}

export async function testJobRuns(db: Kysely<DB>, key?: string): Promise<TestJobRun[]> {
  const { rows } = await sql<TestJobRun>`
    select key, job_id, retry_count, pid, started_at, ended_at, outcome from test_job_runs
    where ${key === undefined ? sql`true` : sql`key = ${key}`} order by id`.execute(db);
  return rows;
}

async function recordRun(data: z.output<typeof TestJobData>, ctx: JobContext): Promise<void> {
  const { rows } = await sql<{ id: number }>`
    insert into test_job_runs (key, job_id, retry_count, pid)
    values (${data.key}, ${ctx.job.id}, ${ctx.job.retryCount}, ${process.pid}) returning id`.execute(ctx.db);
  const runId = rows[0]?.id;
  const finish = (outcome: string) => sql`update test_job_runs set ended_at = clock_timestamp(), outcome = ${outcome} where id = ${runId}`.execute(ctx.db);
  if (data.sleepMs > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, data.sleepMs);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  if (ctx.signal.aborted) {
    await finish('aborted');
    throw new Error('aborted');
  }
  if (ctx.job.retryCount < data.failTimes) {
    await finish('failed');
    throw new Error(`failing on purpose (attempt ${ctx.job.retryCount + 1} of ${data.failTimes} to fail)`);
  }
  await finish('done');
}

export const testJobSetup = jobSetup(TEST_JOBS, { 'test.record': recordRun, 'test.lease': recordRun });
