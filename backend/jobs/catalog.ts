import { z } from 'zod';
import { defineJobs } from './define.ts';

/**
 * The app's jobs: name → payload schema and retry policy (see define.ts). A service sends one with
 * `ctx.jobs.send(ctx.db, name, data)`; its handler is given to the queue in server.ts
 * (`jobSetup(JOBS, { name: handler })`, which requires one for every job listed here).
 */
export const JOBS = defineJobs({
  /** Fetch a pin's remote image (SSRF-guarded), store it with its thumbnails, point the pin at it. */
  'image.import': {
    data: z.object({ pinId: z.number().int().positive(), url: z.string().min(1).max(2048) }),
    retryLimit: 4,
    retryDelaySeconds: 10,
  },
  /**
   * Delete change-log rows older than CHANGES_RETENTION_HOURS (repeat.ts sends one now and then
   * from every instance; a second run in a row deletes nothing).
   */
  'changes.prune': {
    data: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 60,
  },
  /**
   * Delete the stored images (rows and files) no pin has used for IMAGE_SWEEP_GRACE_HOURS
   * (backend/images/sweep.ts; sent like changes.prune).
   */
  'images.sweep': {
    data: z.object({}),
    retryLimit: 1,
    retryDelaySeconds: 300,
  },
  /**
   * One batch of an import's items (backend/imports/run-import.ts), which sends the next batch as a
   * job of its own; the last one puts the pins in their boards and starts the user's next import.
   * Sent in the user's group `imports:<id>`, one at a time per user.
   */
  'imports.run': {
    data: z.object({ importId: z.number().int().positive() }),
    retryLimit: 3,
    retryDelaySeconds: 10,
    leaseSeconds: 600,
  },
});

export type AppJobs = typeof JOBS;
