import { pruneChanges } from './changes/changes.service.ts';
import { HostCooldown } from './images/host-cooldown.ts';
import { fetchImage, type FetchDeps } from './pins/image-fetch-job.ts';
import { readStoredText } from './images/read-text-job.ts';
import { imagesLeftToSee, seeStoredImages } from './images/see-job.ts';
import { stripStoredMetadata } from './images/strip-job.ts';
import { runImport } from './imports/run-import.ts';
import { sweepImages } from './images/sweep.ts';
import { foldCounters, settleLikesJob } from './favorites/likes.ts';
import { JOBS } from './job-catalog.ts';
import { tellPinsOfPicture } from './pins/picture-facts.ts';
import { jobSetup, type JobSetup } from './jobs/define.ts';

/** The backfill's group: one batch at a time across the instances. */
export const SEE_GROUP = 'see';
/** The backfill's progress line counts what is left up to this many. */
const SEE_PROGRESS_COUNT_UP_TO = 10_000;

/**
 * The app's job handlers, one per job of job-catalog.ts (jobSetup checks that none is missing and that
 * each takes its job's payload), with their dependencies. The server runs them; `npm run db:seed`
 * builds the same setup to queue the demo's picture fetches without running any.
 */
export function appJobs(deps: Omit<FetchDeps, 'cooldown'> & { changeRetentionHours: number; imageSweepGraceHours: number }): JobSetup {
  // Per instance: a host that timed out here is left alone here (host-cooldown.ts).
  const fetches: FetchDeps = { ...deps, cooldown: new HostCooldown(deps.fetching.hostCooldownMs) };
  return jobSetup(JOBS, {
    'image.fetch': (data, ctx) => fetchImage(fetches, data, ctx),
    'image.import': (data, ctx) => fetchImage(fetches, data, ctx),
    // Each item of a bulk import takes one image from the same per-user budget (image-budget.ts).
    'imports.run': (data, ctx) => runImport({ storage: deps.storage, fetching: deps.fetching, takeImage: (userId) => deps.budget.take(userId), cooldown: fetches.cooldown }, data, ctx),
    'pins.likes-settle': (data, ctx) => settleLikesJob(ctx, data.pinId),
    'counters.fold': async (_data, ctx) => {
      const folded = await foldCounters(ctx.db);
      if (folded) ctx.logger.debug({ folded }, 'pending counter deltas folded');
    },
    'changes.prune': async (_data, ctx) => {
      const deleted = await pruneChanges(ctx.db, deps.changeRetentionHours);
      if (deleted) ctx.logger.info({ deleted }, 'old change-log rows pruned');
    },
    'images.strip-metadata': async (data, ctx) => {
      const done = await stripStoredMetadata({ db: ctx.db, storage: deps.storage, logger: ctx.logger }, data.after);
      if (done.rewritten || done.failed) ctx.logger.info(done, 'stored originals cleaned of their metadata');
      if (done.next) await ctx.jobs.send(ctx.db, 'images.strip-metadata', { after: done.next }, { group: 'strip' });
    },
    'images.read-text': async (data, ctx) => {
      const read = await readStoredText({ db: ctx.db, storage: deps.storage, logger: ctx.logger }, data.sha256);
      if (read?.found) await tellPinsOfPicture(ctx, data.sha256);
    },
    'images.see': async (data, ctx) => {
      const done = await seeStoredImages({ db: ctx.db, storage: deps.storage, logger: ctx.logger, signal: ctx.signal }, data.after);
      if (done.seen || done.read || done.failed) {
        const left = await imagesLeftToSee(ctx.db, done.next, SEE_PROGRESS_COUNT_UP_TO);
        ctx.logger.info({ ...done, left }, `images.see: ${done.seen} seen, ${done.read} read, ${done.failed} failed, ${left >= SEE_PROGRESS_COUNT_UP_TO ? `${left}+` : left} left`);
      }
      if (done.next) await ctx.jobs.send(ctx.db, 'images.see', { after: done.next }, { group: SEE_GROUP });
    },
    'images.sweep': async (_data, ctx) => {
      const deleted = await sweepImages({ db: ctx.db, storage: deps.storage }, deps.imageSweepGraceHours);
      if (deleted) ctx.logger.info({ deleted }, 'stored images no pin uses deleted');
    },
  });
}
