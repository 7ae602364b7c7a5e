import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { EventPublisher } from './bus/event-bus.ts';
import type { AppJobs } from './job-catalog.ts';
import type { JobSender } from './jobs/define.ts';

/**
 * What every service needs: the database, the bus, and where to queue background work. `db` is
 * usually the pool; inside a caller's transaction (an idempotent create, an import's item) it is
 * that transaction, which the services' writes join: write() (backend/changes/write.ts) publishes
 * their changes on the bus once it has committed. `jobs.send(ctx.db, …)` writes the job on whatever
 * `ctx.db` is, so a job sent in a transaction commits or rolls back with it.
 */
export interface ServiceContext {
  db: Kysely<DB>;
  events: EventPublisher;
  jobs: JobSender<AppJobs>;
  /** Fetches by URL (a pin's picture, a page's pictures): what the SSRF guard lets through besides the public internet, and the per-user queue cap. */
  fetching: FetchSettings;
}

export interface FetchSettings {
  allow: { cidrs: string[]; ports: number[] };
  /** How long a remote server may take to send its answer's headers (FETCH_HEADERS_TIMEOUT_SECONDS). */
  headersTimeoutMs?: number;
  pendingPerUser: number;
}
