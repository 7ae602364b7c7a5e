import { pruneChanges } from '../changes/changes.service.ts';
import { importImage, type ImportDeps } from '../images/import-job.ts';
import { runImport } from '../imports/run-import.ts';
import { sweepImages } from '../images/sweep.ts';
import { JOBS } from './catalog.ts';
import { jobSetup, type JobSetup } from './define.ts';

/**
 * The app's job handlers, one per job of catalog.ts (jobSetup checks that none is missing and that
 * each takes its job's payload), with their dependencies. The server runs them; `npm run db:seed`
 * builds the same setup to queue the demo's imports without running any.
 */
export function appJobs(deps: ImportDeps & { changeRetentionHours: number; imageSweepGraceHours: number }): JobSetup {
  return jobSetup(JOBS, {
    'image.import': (data, ctx) => importImage(deps, data, ctx),
    'imports.run': (data, ctx) =>
      runImport({ storage: deps.storage, allow: { cidrs: deps.imports.allowCidrs, ports: deps.imports.allowPorts }, takeImage: async () => ({ ok: true }) }, data, ctx),
    'changes.prune': async (_data, ctx) => {
      const deleted = await pruneChanges(ctx.db, deps.changeRetentionHours);
      if (deleted) ctx.logger.info({ deleted }, 'old change-log rows pruned');
    },
    'images.sweep': async (_data, ctx) => {
      const deleted = await sweepImages({ db: ctx.db, storage: deps.storage }, deps.imageSweepGraceHours);
      if (deleted) ctx.logger.info({ deleted }, 'stored images no pin uses deleted');
    },
  });
}
