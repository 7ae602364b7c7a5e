import type { JobSender } from '../jobs/define.ts';
import type { Kysely } from 'kysely';
import type { AppJobs } from '../jobs/catalog.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Sends the `changes.prune` job (backend/jobs/app-jobs.ts) every `intervalMs` from this instance,
 * and once at start. pg-boss runs no schedules here (no cron, see queue.ts), and a timer per
 * instance needs no coordination: with N instances the job runs N times per interval, and a run
 * right after another deletes nothing. Returns a function that stops it.
 */
export function schedulePruning(
  jobs: JobSender<AppJobs>,
  db: Kysely<DB>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): () => void {
  const send = () => void jobs.send(db, 'changes.prune', {}).catch(options.onError);
  send();
  const timer = setInterval(send, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
