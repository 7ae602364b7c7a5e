import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { EventPublisher } from '../bus/event-bus.ts';

// The typed side of the job queue: which jobs exist (a catalog: name → payload schema and retry
// policy) and what runs them (handlers, given when the queue starts). The two are apart on purpose:
// services that send a job import only the catalog, while a handler's dependencies (storage, HTTP
// clients) are built by the assembly (backend/job-handlers.ts) and reach the handler through a
// closure, not through the catalog.

/** One kind of job: what it carries and how hard to try. */
export interface JobType<S extends z.ZodType = z.ZodType> {
  /** The payload, checked when a job is sent and again when it is handled (a bad one fails for good). */
  data: S;
  /** Further attempts after the first fails (default 3): a job runs at most 1 + retryLimit times. */
  retryLimit?: number;
  /** The first retry waits about this long, each next one about twice as long (default 5). */
  retryDelaySeconds?: number;
  /** No wait between attempts grows beyond this (default 300). */
  retryDelayMaxSeconds?: number;
  /**
   * How long one attempt may run (default: JOB_LEASE_SECONDS). Past it the attempt's signal is
   * aborted and the job counts as failed; a job whose worker died runs again once it has passed.
   */
  leaseSeconds?: number;
}

/** Names to job types. Build one with `defineJobs` so the names and payloads stay typed. */
export type JobCatalog = Record<string, JobType>;

export type JobName<C extends JobCatalog> = Extract<keyof C, string>;
/** What a sender passes (the schema's input). */
export type JobInput<C extends JobCatalog, N extends JobName<C>> = z.input<C[N]['data']>;
/** What a handler receives (the schema's output). */
export type JobData<C extends JobCatalog, N extends JobName<C>> = z.output<C[N]['data']>;

export interface SendOptions {
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
  /**
   * Whose job it is (e.g. `user:7`): a job type with a per-group concurrency (JobQueueOptions) runs
   * at most that many of one group's jobs at once, across instances, so one group's backlog never
   * holds every worker.
   */
  group?: string;
  /** Higher runs first among due jobs (default 0); a retry sent with a lower one waits behind fresh jobs. */
  priority?: number;
}

/** Sends jobs of one catalog. Services get it as `ctx.jobs`. */
export interface JobSender<C extends JobCatalog = JobCatalog> {
  /**
   * Queues a job on `db`: the pool, or the caller's transaction, in which case the job exists only
   * if that transaction commits (and no worker sees it before). Resolves with the job's id; never
   * waits for the job to run. Throws on an unknown name or a payload its schema refuses.
   */
  send<N extends JobName<C>>(db: Kysely<DB>, name: N, data: JobInput<C, N>, options?: SendOptions): Promise<string>;
  /** How many of `group`'s `name` jobs wait to run (queued or waiting to be retried), counted up to `upTo`. */
  pending(db: Kysely<DB>, name: JobName<C>, group: string, upTo: number): Promise<number>;
}

/** What a handler gets besides its payload. */
export interface JobContext {
  /** The pool (not a transaction): a handler opens its own transactions. */
  db: Kysely<DB>;
  /** The instance's bus: events published here are heard at once (in a transaction, changes go through `write()`, backend/changes/write.ts, and act after the commit). */
  events: EventPublisher;
  jobs: JobSender;
  /** A child of the server's logger with the job's name and id. */
  logger: Logger;
  /** Aborted when the attempt's lease runs out or the server stops: pass it to fetches, stop on it. */
  signal: AbortSignal;
  job: { id: string; name: string; /** 0 on the first attempt. */ retryCount: number; retryLimit: number };
}

/** A handler resolves when the job is done; a throw (or rejection) fails the attempt. */
export type JobHandler<T> = (data: T, ctx: JobContext) => Promise<void>;

/** A handler for every job of the catalog. */
export type JobHandlers<C extends JobCatalog> = { [N in JobName<C>]: JobHandler<JobData<C, N>> };

/** A catalog and its handlers, as the queue takes them (see `jobSetup`). */
export interface JobSetup {
  catalog: JobCatalog;
  handlers: Record<string, JobHandler<never>>;
}

/** Declares a catalog with its names and payload types kept (an identity at run time). */
export function defineJobs<const C extends Record<string, JobType>>(catalog: C): C {
  for (const name of Object.keys(catalog)) {
    // pg-boss's rule for queue names; checked here so a bad name fails at start-up, not on first send.
    if (!/^[\w.\-/]+$/.test(name)) throw new Error(`job name "${name}": letters, digits and _ . - / only`);
  }
  return catalog;
}

/** Pairs a catalog with a handler for each of its jobs, type-checked against the payloads. */
export function jobSetup<C extends JobCatalog>(catalog: C, handlers: JobHandlers<C>): JobSetup {
  return { catalog, handlers };
}

/** Several setups as one (e.g. the app's and a test's); a name given twice is refused. */
export function mergeJobSetups(...setups: JobSetup[]): JobSetup {
  const merged: JobSetup = { catalog: {}, handlers: {} };
  for (const setup of setups) {
    for (const [name, type] of Object.entries(setup.catalog)) {
      if (name in merged.catalog) throw new Error(`job "${name}" is defined twice`);
      merged.catalog[name] = type;
    }
    Object.assign(merged.handlers, setup.handlers);
  }
  return merged;
}
