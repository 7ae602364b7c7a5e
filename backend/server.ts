import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { Server as SocketServer } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract/events.ts';
import type { Database } from '../db/connect.ts';
import { configurePasswordHashing } from './auth/passwords.ts';
import type { Config } from './config.ts';
import { EventBus } from './bus/event-bus.ts';
import { createImageBudget, type ImageBudget } from './images/image-budget.ts';
import { configureImageProcessing } from './images/process.ts';
import { configureTextReading, stopTextReading } from './images/seen/read-text.ts';
import type { MediaStorage } from './images/storage.ts';
import type { AppJobs } from './job-catalog.ts';
import type { JobSetup } from './jobs/define.ts';
import type { JobQueue } from './jobs/queue.ts';
import { openData } from './server/data.ts';
import { type Jobs, startJobs } from './server/jobs.ts';
import { listen, stopListening } from './server/listen.ts';
import { startRealtime } from './server/realtime.ts';
import { openStorage } from './server/storage.ts';
import { startWeb } from './server/web.ts';

/** What requests and running jobs get to finish once a shutdown starts. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  url: string;
  port: number;
  httpServer: Server;
  database: Database;
  events: EventBus;
  /** The background job queue (workers run here unless JOB_WORKERS=false). */
  jobs: JobQueue<AppJobs>;
  logger: Logger;
  /** Where stored images are kept (a folder or a bucket, per MEDIA_DIR / S3_*). */
  media: MediaStorage;
  io: SocketServer<ClientToServerEvents, ServerToClientEvents>;
  /** Stops accepting, lets in-flight requests finish (bounded), then closes Redis and the database. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** More jobs besides the app's (tests): a catalog and its handlers. */
  jobs?: JobSetup;
}

/**
 * Starts one instance in named parts (backend/server/): storage, data (database and Redis), jobs,
 * the web app, real time, then listens. `close` undoes them in reverse.
 */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  // Asynchronous writes: a line per request no longer costs a blocking write(2) on the request's
  // path; lines written meanwhile go out together. pino flushes what is pending on exit.
  const logger = pino({ level: config.logLevel, redact: ['*.password', '*.cookie', '*.headers.cookie'] }, pino.destination({ dest: 1, sync: false }));
  configurePasswordHashing(config.passwordHashing);
  configureImageProcessing(config.imageProcessing);
  configureTextReading(config.ocr);
  const media = await openStorage(config, logger);
  const data = await openData(config, logger);
  const events = new EventBus((error, event) => logger.error({ err: error, event }, 'event listener failed'));
  let budget: ImageBudget;
  let jobs: Jobs;
  try {
    budget = imageBudget(config, data.redis, logger);
    jobs = await startJobs(config, { data, media, budget, events, logger, extra: options.jobs });
  } catch (error) {
    await data.close();
    throw error;
  }
  const web = await startWeb(config, { data, events, jobs: jobs.queue, logger, media, budget });
  const realtime = startRealtime(config, data, web, events, logger);
  const port = await listen(web.httpServer, config);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      web.lifecycle.shuttingDown = true;
      jobs.stopRepeats();
      realtime.stopHeads();
      // Workers stop fetching now; running handlers get the same grace as requests (then their jobs
      // are failed, to be retried elsewhere or later). Both need the database, closed last.
      const jobsStopped = jobs.queue.stop(SHUTDOWN_GRACE_MS);
      await stopListening(web.httpServer, realtime.io, SHUTDOWN_GRACE_MS);
      await realtime.leave();
      // Only now: writes that finished during the grace period still announce their events.
      await jobsStopped;
      // The text reader's worker thread (started on first use) would keep the process alive.
      await stopTextReading();
      realtime.stop();
      await web.close();
      await data.close();
    })();
    return closing;
  };

  const { database } = data;
  return { url: `http://localhost:${port}`, port, httpServer: web.httpServer, database, events, jobs: jobs.queue, logger, media, io: realtime.io, close };
}

/** Each user's image allowance, counted in Redis when there is one (shared by the instances). */
function imageBudget(config: Config, redis: Redis | undefined, logger: Logger): ImageBudget {
  return createImageBudget({
    ...config.imageBudget,
    redis,
    deployment: config.socketChannel,
    onStoreError: (error) => logger.warn({ err: error }, 'image budget store unavailable: images let through'),
  });
}
