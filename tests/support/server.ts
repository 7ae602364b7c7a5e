import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../backend/auth/passwords.ts';
import { type Config, loadConfig } from '../../backend/config.ts';
import type { JobSetup } from '../../backend/jobs/define.ts';
import { type RunningServer, startServer as startBackend } from '../../backend/server.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type SeedResult, seedDemoData } from '../../db/seed.ts';
import { createTestDatabase, REDIS_URL } from './database.ts';

export type TestDatabaseKind = 'postgres' | 'pglite';

export interface StartOptions {
  /** Defaults to PINBOARD_TEST_DB (set per Vitest project), else 'postgres'. */
  db?: TestDatabaseKind;
  /** Use the machine's Redis for sessions and rate limits. */
  redis?: boolean;
  /**
   * Load the demo account and sample pins: `true` for the whole demo catalog (as the app does),
   * `{ pins: n }` for its first n pictures (a dozen keeps a test file fast).
   */
  seed?: boolean | { pins: number };
  /** Reuse an existing database (e.g. a second instance on the same data) instead of a fresh one. */
  databaseUrl?: string;
  /** Extra environment, as the server would read it (e.g. LOGIN_FAILURES_PER_ACCOUNT). */
  env?: Record<string, string>;
  /** Jobs to run besides the app's (e.g. tests/support/test-jobs.ts). */
  jobs?: JobSetup;
}

export interface TestServer {
  url: string;
  server: RunningServer;
  config: Config;
  /** What the seed created (when `seed` was asked for). */
  seeded: SeedResult | null;
  /** The Postgres URL (postgres mode) so a second instance can share the data. */
  databaseUrl: string | undefined;
  /** The folder stored images go to (unless the test configured a bucket): one per database. */
  mediaDir: string | undefined;
  stop(): Promise<void>;
}

/** What a test reads of a running server: all but stopping it (a TestServer, or useTestServer's context). */
export type ServerView = Readonly<Omit<TestServer, 'stop'>>;

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.PINBOARD_TEST_DB === 'pglite' ? 'pglite' : 'postgres';
}

/**
 * Starts the real backend on a free port with a fresh database (a new Postgres database, or an
 * in-memory PGlite), migrated, optionally seeded. `stop()` closes it and drops the database.
 */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const kind = options.db ?? testDatabaseKind();
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl = options.databaseUrl;
  if (kind === 'postgres' && !databaseUrl) {
    const created = await createTestDatabase();
    databaseUrl = created.url;
    drop = created.drop;
  }
  // Stored images (and imported ZIPs) get a folder per database, so a second instance on the same
  // data shares it (as instances on one host do) and test files never see each other's files.
  // Removed with the database.
  const mediaDir = path.join(tmpdir(), 'pinboard-test-media', databaseUrl ? new URL(databaseUrl).pathname.slice(1) : `pglite-${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e9)}`);
  const ownsMedia = !options.databaseUrl;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PGLITE_DIR: ':memory:',
    AUTO_MIGRATE: 'false',
    AUTO_SEED: 'false',
    ...(kind === 'postgres' && databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // Servers on one database share a channel; other test files' servers on the same Redis must
    // not deliver their events here (pin 1 of one database is not pin 1 of another).
    ...(options.redis ? { REDIS_URL, SOCKET_CHANNEL: `pinboard-test:${databaseUrl ? new URL(databaseUrl).pathname.slice(1) : process.pid}` } : {}),
    // Seeded servers offer the demo button, as the embedded mode does.
    ...(options.seed ? { DEMO_LOGIN: 'true' } : {}),
    // A test file signs up more users from one address, and makes more pins whose images wait to be
    // imported, than a person would; the limits' own tests set them.
    AUTH_RATE_LIMIT_PER_IP: '10000',
    SESSIONS_PER_ADDRESS: '100000',
    FETCH_PENDING_PER_USER: '10000',
    // Both kinds of database process images two at a time, as the services mode does (the embedded
    // mode's default is one): the PGlite suites then see the same queue as the Postgres ones.
    IMAGE_PROCESS_CONCURRENCY: '2',
    MEDIA_DIR: mediaDir,
    // Imported ZIPs, likewise: a test file sees only its own.
    IMPORT_DIR: path.join(mediaDir, 'imports'),
    ...options.env,
  });
  let server: RunningServer;
  let seeded: SeedResult | null = null;
  try {
    server = await startBackend(config, options.jobs ? { jobs: options.jobs } : {});
    if (!options.databaseUrl) await migrateToLatest(server.database.db);
    if (options.seed) {
      const pins = typeof options.seed === 'object' ? options.seed.pins : undefined;
      seeded = await seedDemoData(server.database.db, { demo: config.demo, hashPassword, pins });
    }
  } catch (error) {
    await drop?.();
    if (ownsMedia) await rm(mediaDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    server,
    config,
    seeded,
    databaseUrl,
    mediaDir: config.media.kind === 'local' ? config.media.dir : undefined,
    async stop() {
      await server.close();
      await drop?.();
      if (ownsMedia) await rm(mediaDir, { recursive: true, force: true });
    },
  };
}
