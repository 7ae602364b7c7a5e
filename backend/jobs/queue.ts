import { type Kysely, sql } from 'kysely';
import { type JobResult, type JobWithMetadata, PgBoss, type SendOptions as BossSendOptions } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../../db/connect.ts';
import type { DB } from '../../db/schema.ts';
import type { Config } from '../config.ts';
import type { EventPublisher } from '../bus/event-bus.ts';
import { kyselyDatabase, poolDatabase } from './adapters.ts';
import type { JobCatalog, JobContext, JobHandler, JobSender, JobSetup, JobType, SendOptions } from './define.ts';

// The job queue: pg-boss 12 on the app's own database, in both modes.
//
// Why pg-boss and not a table of our own: it already does what a queue must get right — claims with
// FOR UPDATE SKIP LOCKED (several instances never run one job at once), retries with exponential
// backoff and a limit, an expiry after which a job whose worker died runs again, a per-attempt
// timeout, graceful stop — and it runs on PGlite. What makes it fit here:
//   - All its statements go through the app's pool (adapters.ts), one short query at a time: in the
//     embedded mode, where the pool is PGlite's one connection, the queue takes turns with requests
//     and never holds the connection while a handler runs (handlers make their own queries).
//   - No LISTEN/NOTIFY (PGlite's socket has one session, and polling is enough): idle workers poll
//     every JOB_POLL_SECONDS, and a send on this instance wakes its worker at once.
//   - A job is sent on the caller's Kysely handle, so inside a service's transaction it commits or
//     rolls back with the rest. The send itself is one INSERT on that handle: it must never need the
//     pool (in the embedded mode the transaction holds the only connection), which is why every
//     queue is created at start and so always found in pg-boss's cache.
//   - Its schema (`pgboss`) is installed and migrated by pg-boss at start, under an advisory lock,
//     on every instance; it is not part of db/migrations.

/** pg-boss's schema in our database. */
const SCHEMA = 'pgboss';
/** Retry policy when a job type does not set one. */
const DEFAULT_RETRY = { retryLimit: 3, retryDelaySeconds: 5, retryDelayMaxSeconds: 300 };
/**
 * How long a finished job (completed or failed) is kept: a day to look into what happened.
 * pg-boss's default of a week would keep a fetch job row for every pin made that week.
 */
const FINISHED_JOBS_KEPT_SECONDS = 24 * 3600;
/** After a send inside a transaction, wake the worker this much later: by then it has usually committed. */
const WAKE_AFTER_TRANSACTION_MS = 50;

export interface JobRecord {
  id: string;
  name: string;
  /** created → active → completed; or retry (waiting for the next attempt) → … → failed. */
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: unknown;
  /** Attempts made after the first one (so far). */
  retryCount: number;
  retryLimit: number;
  /** Not run before this (the backoff of a retry). */
  startAfter: Date;
  startedOn: Date | null;
  completedOn: Date | null;
  createdOn: Date;
  /** For a failed attempt or job: what went wrong ({message}). */
  output: unknown;
  /** How long the job is kept once it has finished. */
  keptAfterFinishSeconds: number;
}

export interface JobQueue<C extends JobCatalog = JobCatalog> {
  /** The sender for services (`ctx.jobs`) and handlers, typed by the app's catalog. */
  sender: JobSender<C>;
  /** Any job of the queue's catalog, without compile-time types (tests, tools). */
  send(db: Kysely<DB>, name: string, data: unknown, options?: SendOptions): Promise<string>;
  /** A job's current state (completed and failed jobs are kept for a day). */
  get(name: string, id: string): Promise<JobRecord | null>;
  /**
   * Stops fetching, waits up to `graceMs` for running handlers, then fails what is still running
   * (its signal is aborted; the job is retried later like any failed attempt).
   */
  stop(graceMs: number): Promise<void>;
}

export interface JobQueueOptions {
  database: Database;
  setup: JobSetup;
  /** Handlers publish on the instance's bus. */
  events: EventPublisher;
  logger: Logger;
  config: Config['jobs'];
  /** Per job type: at most this many jobs of one group (SendOptions.group) run at once, across instances. */
  groupConcurrency?: Record<string, number>;
}

/** What every attempt's context shares. */
interface AttemptDeps {
  db: Kysely<DB>;
  events: EventPublisher;
  jobs: JobSender;
  logger: Logger;
}

/**
 * One attempt of one job: checks the payload, runs the handler, and says how it ended. Never
 * throws: a failure is logged with the job's name and id and becomes the attempt's result.
 */
async function runAttempt(job: JobWithMetadata<unknown>, type: JobType, handler: JobHandler<never>, deps: AttemptDeps): Promise<JobResult> {
  const { name } = job;
  const log = deps.logger.child({ job: { name, id: job.id, retryCount: job.retryCount } });
  const parsed = type.data.safeParse(job.data);
  if (!parsed.success) {
    // Permanent: the same payload would fail every time. 'deadletter' fails the job now,
    // whatever retries it has left.
    log.error({ issues: parsed.error.issues }, 'job payload invalid: failed without retries');
    return { id: job.id, status: 'deadletter', output: { message: 'invalid payload', issues: parsed.error.issues } };
  }
  // pg-boss aborts job.signal when the lease runs out or a stop's grace has passed — and also
  // after every attempt, when it clears its timer; the handler's own signal only for the first two.
  let settled = false;
  const retried = job.retryCount < job.retryLimit;
  const abort = new AbortController();
  job.signal.addEventListener(
    'abort',
    () => {
      if (settled) return;
      log.warn({ retried }, 'job attempt stopped: it outran its lease, or the server is stopping (the attempt counts as failed)');
      abort.abort(new Error('job attempt stopped'));
    },
    { once: true },
  );
  const ctx: JobContext = {
    db: deps.db,
    events: deps.events,
    jobs: deps.jobs,
    logger: log,
    signal: abort.signal,
    job: { id: job.id, name, retryCount: job.retryCount, retryLimit: job.retryLimit },
  };
  try {
    // The catalog and its handlers were paired type-checked by jobSetup; here they meet untyped.
    await handler(parsed.data as never, ctx);
    return { id: job.id, status: 'completed' };
  } catch (error) {
    // A stopped attempt was already failed (and logged) when its signal was aborted.
    if (abort.signal.aborted) log.info({ err: error }, 'stopped job attempt ended');
    else log.error({ err: error, retried }, retried ? 'job failed: it will be retried' : 'job failed: no retries left');
    return { id: job.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } };
  } finally {
    settled = true;
  }
}

/** A pg-boss worker of this process: its id (to wake it), and whether it is running a job. */
type Worker = { id?: string; busy: boolean };

/** `count` workers for the job `name`, one job at a time each, added to `slots` as each starts. */
async function addWorkers(
  boss: PgBoss,
  name: string,
  slots: Worker[],
  how: { count: number; pollSeconds: number; groupConcurrency: number | undefined },
  run: (job: JobWithMetadata<unknown>, worker: Worker) => Promise<JobResult>,
): Promise<void> {
  for (let i = 0; i < how.count; i++) {
    const worker: Worker = { busy: false };
    slots.push(worker);
    worker.id = await boss.work(
      name,
      {
        pollingIntervalSeconds: how.pollSeconds,
        batchSize: 1,
        includeMetadata: true,
        perJobResults: true,
        ...(how.groupConcurrency ? { groupConcurrency: how.groupConcurrency } : {}),
      },
      async (jobs: Array<JobWithMetadata<unknown>>) => Promise.all(jobs.map((job) => run(job, worker))),
    );
  }
}

/** pg-boss on the app's pool, its sweeps every `sweepSeconds`, its own failures logged. */
async function startBoss(database: JobQueueOptions['database'], logger: Logger, sweepSeconds: number): Promise<PgBoss> {
  const boss = new PgBoss({
    db: poolDatabase(database.pool),
    backend: database.kind === 'pglite' ? 'pglite' : 'postgres',
    schema: SCHEMA,
    // No cron schedules (and so no clock-skew checks), no instance registry, no LISTEN.
    schedule: false,
    registerInstance: false,
    useListenNotify: false,
    superviseIntervalSeconds: sweepSeconds,
    monitorIntervalSeconds: sweepSeconds,
  });
  // pg-boss reports its own failures (a fetch or sweep that could not reach the database, …) as
  // events; without a listener an 'error' event would throw.
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  boss.on('warning', (warning) => logger.warn({ warning: warning.data }, warning.message));
  await boss.start();
  return boss;
}

/** A job type's retries, lease and how long its finished jobs are kept, as pg-boss takes them. */
function sendOptionsOf(type: JobType, leaseSeconds: number): BossSendOptions {
  const retry = { ...DEFAULT_RETRY, ...type };
  return {
    retryLimit: retry.retryLimit,
    retryDelay: retry.retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: retry.retryDelayMaxSeconds,
    expireInSeconds: leaseSeconds,
    deleteAfterSeconds: FINISHED_JOBS_KEPT_SECONDS,
  };
}

/** How many jobs `name` of `group` are waiting, counted up to `upTo`. */
async function pendingJobs(db: Kysely<DB>, name: string, group: string, upTo: number): Promise<number> {
  // pg-boss's own table; `state < 'active'` is created or retry (its enum is ordered).
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from ${sql.id(SCHEMA, 'job')} where name = ${name} and group_id = ${group} and state < 'active' limit ${upTo}
    ) as waiting`.execute(db);
  return rows[0]?.n ?? 0;
}

function recordOf(job: JobWithMetadata<unknown>): JobRecord {
  return {
    id: job.id,
    name: job.name,
    state: job.state,
    data: job.data,
    retryCount: job.retryCount,
    retryLimit: job.retryLimit,
    startAfter: job.startAfter,
    startedOn: job.startedOn ?? null,
    completedOn: job.completedOn,
    createdOn: job.createdOn,
    output: job.output ?? null,
    keptAfterFinishSeconds: job.deleteAfterSeconds,
  };
}

export async function startJobQueue<C extends JobCatalog = JobCatalog>(options: JobQueueOptions): Promise<JobQueue<C>> {
  const { database, setup, config } = options;
  const logger = options.logger.child({ component: 'jobs' });
  const types = new Map(Object.entries(setup.catalog));
  const leaseOf = (type: JobType) => type.leaseSeconds ?? config.leaseSeconds;
  // Expired attempts (a dead worker's) are found by a sweep: a few of them per lease, so a job
  // waits about a lease and a quarter at most before it runs again.
  const shortestLease = Math.min(config.leaseSeconds, ...[...types.values()].map(leaseOf));
  const sweepSeconds = Math.max(1, Math.min(60, Math.round(shortestLease / 4)));

  const boss = await startBoss(database, logger, sweepSeconds);
  const sendOptions = (type: JobType) => sendOptionsOf(type, leaseOf(type));
  // Every queue exists before the first send: see the header.
  for (const [name, type] of types) await boss.createQueue(name, sendOptions(type));

  // JOB_CONCURRENCY workers per job type, each a pg-boss worker of its own (one job at a time) so
  // that each can be woken by id: an idle one when a job is sent here, and each one right after it
  // finishes a job, so a backlog is drained back to back instead of one job per poll interval.
  const workers = new Map<string, Worker[]>();
  const wake = (name: string) => {
    const idle = workers.get(name)?.find((worker) => worker.id && !worker.busy);
    if (idle?.id) boss.notifyWorker(idle.id);
  };

  const send = async (db: Kysely<DB>, name: string, data: unknown, sendOpts: SendOptions = {}): Promise<string> => {
    const type = types.get(name);
    if (!type) throw new Error(`unknown job "${name}"`);
    const parsed = type.data.safeParse(data);
    if (!parsed.success) throw new Error(`job "${name}" refused: ${z.prettifyError(parsed.error)}`);
    const id = await boss.send(name, data as object, {
      ...sendOptions(type),
      ...(sendOpts.startAfterSeconds ? { startAfter: sendOpts.startAfterSeconds } : {}),
      ...(sendOpts.group ? { group: { id: sendOpts.group } } : {}),
      ...(sendOpts.priority ? { priority: sendOpts.priority } : {}),
      db: kyselyDatabase(db),
    });
    if (id === null) throw new Error(`job "${name}" was not queued`);
    if (!sendOpts.startAfterSeconds) {
      if (db.isTransaction) setTimeout(() => wake(name), WAKE_AFTER_TRANSACTION_MS).unref();
      else wake(name);
    }
    return id;
  };
  const sender: JobSender<C> = { send, pending: pendingJobs };

  if (config.workers) {
    for (const [name, type] of types) {
      const handler = setup.handlers[name];
      if (!handler) {
        logger.warn({ job: name }, 'no handler for this job type: its jobs wait for an instance that has one');
        continue;
      }
      const run = async (job: JobWithMetadata<unknown>, worker: Worker): Promise<JobResult> => {
        worker.busy = true;
        try {
          return await runAttempt(job, type, handler, { db: database.db, events: options.events, jobs: sender, logger });
        } finally {
          worker.busy = false;
          // Fetch again as soon as this job is settled (see `workers`).
          if (worker.id) boss.notifyWorker(worker.id);
        }
      };
      const slots: Worker[] = [];
      workers.set(name, slots);
      await addWorkers(boss, name, slots, { count: config.concurrency, pollSeconds: config.pollSeconds, groupConcurrency: options.groupConcurrency?.[name] }, run);
    }
  }
  logger.info({ jobs: [...types.keys()], workers: config.workers, concurrency: config.concurrency }, 'job queue started');

  let stopping: Promise<void> | undefined;
  return {
    sender,
    send,
    async get(name, id) {
      const [job] = await boss.findJobs<unknown>(name, { id });
      return job ? recordOf(job) : null;
    },
    stop(graceMs) {
      stopping ??= boss.stop({ close: false, graceful: true, timeout: graceMs }).catch((error: unknown) => {
        logger.error({ err: error }, 'job queue did not stop cleanly');
      });
      return stopping;
    },
  };
}
