import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { EventBus } from '../bus/event-bus.ts';
import type { ImageBudget } from '../images/image-budget.ts';
import type { MediaStorage } from '../images/storage.ts';
import type { AppJobs } from '../job-catalog.ts';
import { appJobs, SEE_GROUP } from '../job-handlers.ts';
import { type JobSetup, mergeJobSetups } from '../jobs/define.ts';
import { type JobQueue, startJobQueue } from '../jobs/queue.ts';
import { sendRepeatedly } from '../jobs/repeat.ts';
import { queueFetches } from '../pins/image-fetch-job.ts';
import type { Data } from './data.ts';

/** How often the counters' leftover deltas are folded: a read sums at most what was left since. */
const COUNTERS_FOLD_INTERVAL_MS = 5000;

export interface Jobs {
  queue: JobQueue<AppJobs>;
  /** Stops sending the housekeeping jobs (the queue itself is stopped with its own grace). */
  stopRepeats(): void;
}

interface JobsDeps {
  data: Data;
  media: MediaStorage;
  budget: ImageBudget;
  events: EventBus;
  logger: Logger;
  /** More jobs besides the app's (tests): a catalog and its handlers. */
  extra: JobSetup | undefined;
}

/**
 * The background queue with the app's handlers, after the migrations (handlers use the app's
 * tables; the queue installs its own schema), and the jobs every start sends: the metadata rewrite,
 * the seeded pictures' fetches, and the housekeeping sent now and then.
 */
export async function startJobs(config: Config, { data, media, budget, events, logger, extra }: JobsDeps): Promise<Jobs> {
  const { database, seeded } = data;
  const own = appJobs({ storage: media, fetching: config.fetching, budget, changeRetentionHours: config.changes.retentionHours, imageSweepGraceHours: config.imageSweep.graceHours });
  const setup = extra ? mergeJobSetups(own, extra) : own;
  // One user's picture fetches never hold every worker: at most FETCH_CONCURRENCY_PER_USER at once; and
  // one batch of one user's bulk import at a time (backend/imports/run-import.ts).
  const groupConcurrency = { 'image.fetch': config.fetching.concurrencyPerUser, 'image.import': config.fetching.concurrencyPerUser, 'images.strip-metadata': 1, 'imports.run': 1, 'images.see': 1 };
  const queue = await startJobQueue<AppJobs>({ database, setup, events, logger, config: config.jobs, groupConcurrency });
  // Originals stored before metadata was removed are rewritten without it (a no-op once done).
  await queue.sender.send(database.db, 'images.strip-metadata', {}, { group: 'strip' });
  // Pictures stored before they were looked at are seen, and their text read (a no-op once done).
  await queue.sender.send(database.db, 'images.see', {}, { group: SEE_GROUP });
  // The demo's pictures go through the same pipeline as any pin's image, in the background: the
  // pins show their /seed-images/ files at once and swap to stored thumbnails as each is done.
  if (seeded) await queueFetches(queue.sender, database.db, seeded.pins);
  const stops = [
    sendRepeatedly(() => queue.sender.send(database.db, 'changes.prune', {}), {
      intervalMs: config.changes.pruneIntervalMs,
      onError: (error) => logger.warn({ err: error }, 'change-log pruning not queued'),
    }),
    // What a busy row left pending is folded within seconds (docs/data-model.md, "Hot counters are deltas").
    sendRepeatedly(() => queue.sender.send(database.db, 'counters.fold', {}), {
      intervalMs: COUNTERS_FOLD_INTERVAL_MS,
      onError: (error) => logger.warn({ err: error }, 'counter fold not queued'),
    }),
    sendRepeatedly(() => queue.sender.send(database.db, 'images.sweep', {}), {
      intervalMs: config.imageSweep.intervalMs,
      onError: (error) => logger.warn({ err: error }, 'image sweep not queued'),
    }),
  ];
  return { queue, stopRepeats: () => stops.forEach((stop) => stop()) };
}
