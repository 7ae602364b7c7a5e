import { z } from 'zod';
import { defineJobs } from './jobs/define.ts';

/**
 * The app's jobs: name → payload schema and retry policy (see jobs/define.ts). A service sends one
 * with `ctx.jobs.send(ctx.db, name, data)`; its handler is in job-handlers.ts
 * (`jobSetup(JOBS, { name: handler })`, which requires one for every job listed here). Kept
 * beside the assembly, not in jobs/: the queue knows no feature.
 */
const PICTURE_FETCH = {
  data: z.object({
    pinId: z.number().int().positive(),
    url: z.string().min(1).max(2048),
    userId: z.number().int().positive().optional(),
    attempt: z.number().int().min(0).max(100).optional(),
  }),
  retryLimit: 2,
  retryDelaySeconds: 30,
};

export const JOBS = defineJobs({
  /**
   * Fetch a pin's remote image (SSRF-guarded), store it with its thumbnails, point the pin at it.
   * Sent in its owner's group (`user:<id>`, the seed's `seed`). A passing failure is retried as a
   * new job (backend/pins/image-fetch-job.ts), so the queue's own retries only cover a crash or a
   * lease that ran out.
   */
  'image.fetch': PICTURE_FETCH,
  /**
   * image.fetch's former name: a job an older version queued under it still runs (its retries are
   * sent as image.fetch). Nothing sends it any more; it can go once no deployment has one waiting.
   */
  'image.import': PICTURE_FETCH,
  /**
   * Announce a pin's exact likes count with a new version (backend/favorites/likes.ts): sent by a
   * favorite added or removed while another transaction held the pin's row, in its transaction, so
   * that it runs once that change has committed. A second run only announces the same count again.
   */
  'pins.likes-settle': {
    data: z.object({ pinId: z.number().int().positive() }),
    retryLimit: 5,
    retryDelaySeconds: 2,
  },
  /**
   * Fold the counters' pending deltas whose rows were busy when they were written (docs/data-model.md,
   * "Hot counters are deltas"); repeat.ts sends one now and then from every instance.
   */
  'counters.fold': {
    data: z.object({}),
    retryLimit: 1,
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
   * Rewrite stored originals that still carry their metadata, a batch per job, each job sending the
   * next with the key to continue after (backend/images/strip-job.ts). Every instance sends one at
   * start, in group `strip`, of which one runs at a time.
   */
  'images.strip-metadata': {
    data: z.object({
      after: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
    retryLimit: 2,
    retryDelaySeconds: 60,
    leaseSeconds: 600,
  },
  /**
   * Read the text in a newly stored image (OCR on its 736 px thumbnail) and write it to its row,
   * whence a trigger copies it to its pins (backend/images/read-text-job.ts). Sent with the
   * image's row, in group `read-text`; one reading at a time per process whatever runs it.
   */
  'images.read-text': {
    data: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
    retryLimit: 2,
    retryDelaySeconds: 60,
  },
  /**
   * The backfill of what is seen in stored images (hashes, palette, colour names; then their text),
   * a batch per job, each sending the next with the key to continue after
   * (backend/images/see-job.ts). Every instance sends one at start, in group `see`, of which
   * one runs at a time.
   */
  'images.see': {
    data: z.object({
      after: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
    retryLimit: 2,
    retryDelaySeconds: 60,
    leaseSeconds: 600,
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
