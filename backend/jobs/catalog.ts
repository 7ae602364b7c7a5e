import { defineJobs } from './define.ts';

/**
 * The app's jobs: name → payload schema and retry policy (see define.ts). A service sends one with
 * `ctx.jobs.send(ctx.db, name, data)`; its handler is given to the queue in server.ts
 * (`jobSetup(JOBS, { name: handler })`, which requires one for every job listed here).
 */
export const JOBS = defineJobs({});

export type AppJobs = typeof JOBS;
