import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { AppJobs } from './catalog.ts';
import type { JobSender } from './define.ts';

/** The app's housekeeping jobs: they take no data, and a run right after another does nothing. */
type RepeatedJob = 'changes.prune' | 'images.sweep';

/**
 * Sends a housekeeping job every `intervalMs` from this instance, and once at start. pg-boss runs
 * no schedules here (no cron, see queue.ts), and a timer per instance needs no coordination: with N
 * instances the job runs N times per interval, and a run right after another finds nothing to do.
 * Returns a function that stops it.
 */
export function sendRepeatedly(
  jobs: JobSender<AppJobs>,
  db: Kysely<DB>,
  name: RepeatedJob,
  options: { intervalMs: number; onError: (error: unknown) => void },
): () => void {
  const send = () => void jobs.send(db, name, {}).catch(options.onError);
  send();
  const timer = setInterval(send, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
