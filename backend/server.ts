import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { openDatabase, type Database } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';
import { createApp } from './app.ts';
import { makeDataFoldersPrivate } from './data-folders.ts';
import { configurePasswordHashing, hashPassword } from './auth/passwords.ts';
import type { Config } from './config.ts';
import { EventBus } from './events/event-bus.ts';
import { queueImports } from './pins/image-import-job.ts';
import type { AppJobs } from './job-catalog.ts';
import { appJobs } from './job-handlers.ts';
import { type JobSetup, mergeJobSetups } from './jobs/define.ts';
import { type JobQueue, startJobQueue } from './jobs/queue.ts';
import { sendRepeatedly } from './jobs/repeat.ts';
import { CachedSessionStore } from './http/cached-session-store.ts';
import { answerExpectContinue } from './http/expect-continue.ts';
import { UploadGate } from './http/upload-gate.ts';
import type { UploadContext } from './http/upload.ts';
import { createImageBudget, type ImageBudget, overBudget } from './images/image-budget.ts';
import { ReadCache } from './http/read-cache.ts';
import { configureImageProcessing } from './images/process.ts';
import { createMediaStorage } from './images/create-storage.ts';
import type { MediaStorage } from './images/storage.ts';
import { createSessionStore } from './http/session.ts';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as SocketServer } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract/events.ts';
import { createGateway } from './realtime/gateway.ts';
import { boardMemberships, isBoardMember, presentUsers } from './realtime/presence-access.ts';
import { RedisPresenceStore } from './realtime/presence-redis.ts';
import { MemoryPresenceStore } from './realtime/presence-store.ts';
import { PresenceService } from './realtime/presence.ts';
import { PRESENCE_LIMITS } from '../contract/presence.ts';
import { startCacheRelay } from './realtime/cache-relay.ts';
import { startRelay } from './realtime/relay.ts';
import { startTokenRelay } from './tokens/token-relay.ts';
import { startHeadAnnouncer } from './changes/head.ts';
import { connectRedis } from './redis.ts';

/**
 * Public reads kept per instance: a few MB of JSON at most. Events invalidate them on every instance
 * (and a Redis reconnect drops them all), so the TTL only bounds an invalidation lost some other way
 * (an instance dying between its commit and its publish).
 */
const READ_CACHE_ENTRIES = 5_000;
const READ_CACHE_MS = 30_000;

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

export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  // Asynchronous writes: a line per request no longer costs a blocking write(2) on the request's
  // path; lines written meanwhile go out together. pino flushes what is pending on exit.
  const logger = pino(
    { level: config.logLevel, redact: ['*.password', '*.cookie', '*.headers.cookie'] },
    pino.destination({ dest: 1, sync: false }),
  );
  configurePasswordHashing(config.passwordHashing);
  configureImageProcessing(config.imageProcessing);
  // Before anything writes there: the data folders are private (backend/data-folders.ts).
  makeDataFoldersPrivate(config);
  // First: an unwritable media folder stops start-up, before anything else is opened.
  const media = await createMediaStorage(config.media);
  logger.info({ media: media.description }, 'image storage');
  const database = await openDatabase(config.database, {
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
  let redis: Redis | undefined;
  let pubSub: Redis[] = [];
  const events = new EventBus((error, event) => logger.error({ err: error, event }, 'event listener failed'));
  let jobs: JobQueue<AppJobs>;
  let budget: ImageBudget;
  try {
    if (config.autoMigrate) {
      const applied = await migrateToLatest(database.db);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    const seeded = config.autoSeed ? await seedDemoData(database.db, { demo: config.demo, hashPassword }) : null;
    if (seeded) logger.info({ email: config.demo.email, pins: seeded.pins.length }, 'demo data seeded');
    if (config.redisUrl) {
      redis = await connectRedis(config.redisUrl, (error) => logger.warn({ err: error }, 'redis error'));
      // The subscriber only listens: autopipelining is for the connections that send. It sends
      // nothing but its own (re)subscriptions, which ioredis re-issues by itself on every reconnect
      // without handling their promise: so they wait for the connection (offline queue, no retry
      // limit, no timeout) rather than fail fast, as an unhandled rejection, when Redis drops again
      // just as it came back.
      pubSub = [
        redis.duplicate(),
        redis.duplicate({ enableAutoPipelining: false, enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined }),
      ];
      for (const client of pubSub) client.on('error', (error) => logger.warn({ err: error }, 'redis adapter error'));
      await Promise.all(pubSub.map((client) => client.connect()));
      catchPublishFailures(pubSub[0] as Redis, (error) => logger.warn({ err: error }, 'live event not published'));
    }
    budget = createImageBudget({
      ...config.imageBudget,
      redis,
      deployment: config.socketChannel,
      onStoreError: (error) => logger.warn({ err: error }, 'image budget store unavailable: images let through'),
    });
    // After the migrations: handlers use the app's tables. (The queue installs its own schema.)
    const ownJobs = appJobs({ storage: media, imports: config.imports, budget, changeRetentionHours: config.changes.retentionHours, imageSweepGraceHours: config.imageSweep.graceHours });
    const setup = options.jobs ? mergeJobSetups(ownJobs, options.jobs) : ownJobs;
    // One user's imports never hold every worker: at most IMPORT_CONCURRENCY_PER_USER at once; and
    // one batch of one user's bulk import at a time (backend/imports/run-import.ts).
    jobs = await startJobQueue<AppJobs>({ database, setup, events, logger, config: config.jobs, groupConcurrency: { 'image.import': config.imports.concurrencyPerUser, 'images.strip-metadata': 1, 'imports.run': 1 } });
    // Originals stored before metadata was removed are rewritten without it (a no-op once done).
    await jobs.sender.send(database.db, 'images.strip-metadata', {}, { group: 'strip' });
    // The demo's pictures go through the same pipeline as any pin's image, in the background: the
    // pins show their /seed-images/ files at once and swap to stored thumbnails as each is done.
    if (seeded) await queueImports(jobs.sender, database.db, seeded.pins);
  } catch (error) {
    for (const client of pubSub) client.disconnect();
    redis?.disconnect();
    await database.close();
    throw error;
  }
  // Upload bodies are written here while they arrive: a folder of this process's own (mkdtemp
  // makes it readable by its user only), removed when it stops.
  const uploadDir = await mkdtemp(path.join(config.uploads.tmpDir, 'pinboard-uploads-'));
  const gate = new UploadGate(config.uploads);
  const uploads: UploadContext = {
    tmpDir: uploadDir,
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

  const sessionStore = createSessionStore({ redis, memoryMax: config.sessionMemoryMax, perUser: config.sessionsPerUser, perAddress: config.sessionsPerAddress });
  const sessions = sessionStore instanceof CachedSessionStore ? sessionStore : undefined;
  const reads = new ReadCache({ maxEntries: READ_CACHE_ENTRIES, ttlMs: READ_CACHE_MS });
  const lifecycle = { shuttingDown: false };
  const shutdownGraceMs = 10_000;
  const { app, session, originPolicy, tokens } = createApp({ config, database, events, jobs, logger, sessionStore, reads, redis, lifecycle, media, uploads });
  const httpServer = createServer(app);
  answerExpectContinue(httpServer);
  const io = createGateway(httpServer, {
    session,
    sessionStore: sessions?.uncached ?? sessionStore,
    originPolicy,
    sessionCheckMs: config.socketSessionCheckMs,
    socketsPerAddress: config.sockets.perAddress,
    socketsPerSession: config.sockets.perSession,
    messageLimit: config.sockets.messagesPerWindow,
    messageWindowMs: config.sockets.windowMs,
    refusedMessagesBeforeDisconnect: config.sockets.refusedBeforeDisconnect,
    onError: (error, context) => logger.error({ err: error, context }, 'socket handler failed'),
  });
  // Presence (DESIGN §12): counted in Redis when there is one (shared by the instances), else here.
  const presenceTtl = { ttlMs: config.presence.ttlMs, listMax: PRESENCE_LIMITS.boardUsers };
  const presence = new PresenceService(io, {
    store: redis ? new RedisPresenceStore(redis, { prefix: `${config.socketChannel}:`, ...presenceTtl }) : new MemoryPresenceStore(presenceTtl.ttlMs, presenceTtl.listMax),
    heartbeatMs: config.presence.heartbeatMs,
    peers: pubSub.length === 2,
    isBoardMember: (boardId, userId) => isBoardMember(database.db, boardId, userId),
    boardMemberships: (pairs) => boardMemberships(database.db, pairs),
    usernames: (ids) => presentUsers(database.db, ids),
    onError: (error, context) => logger.warn({ err: error, context }, 'presence failed'),
  });
  io.on('connection', (socket) => presence.attach(socket));
  const heads = startHeadAnnouncer(io, database.db, {
    intervalMs: config.changes.headIntervalMs,
    onError: (error) => logger.warn({ err: error }, 'change-log head not read'),
  });
  if (pubSub.length === 2) {
    // Pub/sub adapter: a room emit on one instance reaches that room's sockets on all instances.
    const [pub, sub] = pubSub as [Redis, Redis];
    io.adapter(createAdapter(pub, sub, { key: config.socketChannel }));
    io.of('/').adapter.on('error', (error: unknown) => logger.warn({ err: error }, 'socket.io adapter error'));
    // Back from a Redis outage: invalidations sent meanwhile were lost, so nothing cached is trusted.
    // And the live events of other instances sent meanwhile: this instance's clients hear the
    // log's head, and pull what they missed (backend/changes/head.ts).
    sub.on('ready', () => {
      reads.clear();
      sessions?.forgetAll();
      tokens.verifier.forgetAll();
      heads.announce();
    });
  }
  // Before the socket relay: an instance drops a stale answer before its clients hear of the change.
  const stopCacheRelay = startCacheRelay(io, events, { reads, sessions }, pubSub.length === 2);
  const stopTokenRelay = startTokenRelay(io, tokens.verifier, pubSub.length === 2);
  tokens.lastUsed.start();
  const stopRelay = startRelay(io, events);
  // Board presence follows membership: a removed member, or everyone on a deleted board, leaves it.
  const stopEvictions = [
    events.on('board.member-removed', ({ boardId, userId }) => presence.evict(boardId, userId)),
    events.on('board.deleted', ({ boardId }) => presence.evict(boardId)),
  ];
  const stopPruning = sendRepeatedly(() => jobs.sender.send(database.db, 'changes.prune', {}), {
    intervalMs: config.changes.pruneIntervalMs,
    onError: (error) => logger.warn({ err: error }, 'change-log pruning not queued'),
  });
  const stopSweeping = sendRepeatedly(() => jobs.sender.send(database.db, 'images.sweep', {}), {
    intervalMs: config.imageSweep.intervalMs,
    onError: (error) => logger.warn({ err: error }, 'image sweep not queued'),
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.shuttingDown = true;
      stopPruning();
      stopSweeping();
      heads.stop();
      // Workers stop fetching now; running handlers get the same grace as requests (then their jobs
      // are failed, to be retried elsewhere or later). Both need the database, closed last.
      const jobsStopped = jobs.stop(shutdownGraceMs);
      await new Promise<void>((resolve) => {
        // Stop accepting: a balancer's next connection attempt is refused and goes elsewhere.
        httpServer.close(() => resolve());
        httpServer.closeIdleConnections();
        // This instance's clients reconnect (to another instance behind the balancer) as soon as
        // they are dropped. `local`: with the Redis adapter a plain disconnectSockets would drop
        // every instance's sockets.
        io.local.disconnectSockets(true);
        io.engine.close();
        // In-flight requests get a bounded grace period, then their connections are cut.
        setTimeout(() => {
          httpServer.closeAllConnections();
          resolve();
        }, shutdownGraceMs).unref();
      });
      // The dropped sockets' presence leaves go out while Redis is still open (bounded: an entry
      // left behind expires by itself).
      await Promise.race([presence.close(), new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
      // Only now: writes that finished during the grace period still announce their events.
      await jobsStopped;
      stopRelay();
      for (const stop of stopEvictions) stop();
      stopCacheRelay();
      stopTokenRelay();
      await tokens.lastUsed.stop();
      for (const client of pubSub) client.disconnect();
      redis?.disconnect();
      await database.close();
      await rm(uploadDir, { recursive: true, force: true });
    })();
    return closing;
  };

  return { url: `http://localhost:${port}`, port, httpServer, database, events, jobs, logger, media, io, close };
}

/**
 * The Redis adapter calls `publish` without handling the returned promise, so while Redis is down
 * each emit would become an unhandled rejection and crash the process. Attach a handler: the event
 * is lost (the write that caused it stands; clients resync on reconnect) and the failure is logged.
 */
function catchPublishFailures(client: Redis, onError: (error: unknown) => void): void {
  const publish = client.publish.bind(client) as (channel: string | Buffer, message: string | Buffer) => Promise<number>;
  client.publish = ((channel: string | Buffer, message: string | Buffer) => {
    const result = publish(channel, message);
    result.catch(onError);
    return result;
  }) as Redis['publish'];
}
