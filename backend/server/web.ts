import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Logger } from 'pino';
import { createApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { EventBus } from '../bus/event-bus.ts';
import { CachedSessionStore } from '../http/cached-session-store.ts';
import { answerExpectContinue } from '../http/expect-continue.ts';
import { ReadCache } from '../http/read-cache.ts';
import { createSessionStore } from '../http/session.ts';
import { UploadGate } from '../http/upload-gate.ts';
import type { UploadContext } from '../http/upload.ts';
import { type ImageBudget, overBudget } from '../images/image-budget.ts';
import type { MediaStorage } from '../images/storage.ts';
import type { AppJobs } from '../job-catalog.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Data } from './data.ts';

/**
 * Public reads kept per instance: a few MB of JSON at most. Events invalidate them on every instance
 * (and a Redis reconnect drops them all), so the TTL only bounds an invalidation lost some other way
 * (an instance dying between its commit and its publish).
 */
const READ_CACHE_ENTRIES = 5_000;
const READ_CACHE_MS = 30_000;

interface WebDeps {
  data: Data;
  events: EventBus;
  jobs: JobQueue<AppJobs>;
  logger: Logger;
  media: MediaStorage;
  budget: ImageBudget;
}

export type Web = Awaited<ReturnType<typeof startWeb>>;

/**
 * The HTTP side: the app (routes, sessions, the read cache, uploads) on an HTTP server that does
 * not listen yet. `close` ends what it started once the server has stopped.
 */
export async function startWeb(config: Config, { data, events, jobs, logger, media, budget }: WebDeps) {
  const { database, redis } = data;
  const uploads = await uploadContext(config, budget);
  const sessionStore = createSessionStore({
    redis,
    deployment: config.socketChannel,
    memoryMax: config.sessionMemoryMax,
    perUser: config.sessionsPerUser,
    perAddress: config.sessionsPerAddress,
  });
  const sessions = sessionStore instanceof CachedSessionStore ? sessionStore : undefined;
  const reads = new ReadCache({ maxEntries: READ_CACHE_ENTRIES, ttlMs: READ_CACHE_MS });
  /** Set when a graceful shutdown starts: /readyz then answers 503. */
  const lifecycle = { shuttingDown: false };
  const { app, session, originPolicy, tokens } = createApp({ config, database, replica: data.replica, events, jobs, logger, sessionStore, reads, redis, lifecycle, media, uploads });
  const httpServer: Server = createServer(app);
  answerExpectContinue(httpServer);
  tokens.lastUsed.start();
  return {
    httpServer,
    lifecycle,
    /** What the socket gateway shares with the app. */
    session,
    sessionStore,
    sessions,
    originPolicy,
    reads,
    tokens,
    /** Writes the tokens' last "last used" times and removes the uploads' folder. */
    async close(): Promise<void> {
      await tokens.lastUsed.stop();
      await rm(uploads.tmpDir, { recursive: true, force: true });
    },
  };
}

/**
 * Upload bodies are written while they arrive to a folder of this process's own (mkdtemp makes it
 * readable by its user only), removed when it stops; who may send one now is the upload gate's
 * and the image budget's call.
 */
async function uploadContext(config: Config, budget: ImageBudget): Promise<UploadContext> {
  const tmpDir = await mkdtemp(path.join(config.uploads.tmpDir, 'pinboard-uploads-'));
  const gate = new UploadGate(config.uploads);
  return {
    tmpDir,
    timeoutMs: config.uploads.timeoutMs,
    async admit(userId, options = { image: true }) {
      // Bodies in flight first: a sender turned away there has spent none of its budget.
      const release = gate.enter(userId);
      if (!options.image) return release;
      const answer = await budget.take(userId).catch((error: unknown) => {
        release();
        throw error;
      });
      if (!answer.ok) {
        release();
        throw overBudget(answer);
      }
      return release;
    },
  };
}
