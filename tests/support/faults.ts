import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type RunningNginx, startNginx } from '../../scripts/nginx.ts';
import { type AppProcess, freePort, startAppProcess } from './processes.ts';

// The fault harness: a private Redis and a private Postgres that a test may stop and start again
// (the machine's shared services are never touched), two app instances as their own processes,
// and Debian's nginx in front of them with the deployment's own config (deploy/nginx/pinboard.conf).
// Everything lives in temp dirs and is removed by close(), which a test file calls in afterAll;
// should a worker end without it, an exit hook still stops the servers.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Synchronous last-resort cleanups, run if the process exits with resources still up. */
const exitCleanups = new Set<() => void>();
process.once('exit', () => {
  for (const cleanup of exitCleanups) {
    try {
      cleanup();
    } catch {
      // the process is ending anyway
    }
  }
});

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs} ms`);
    await sleep(50);
  }
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

// ---------------------------------------------------------------------------------------------
// Redis

export interface PrivateRedis {
  port: number;
  url: string;
  dir: string;
  readonly running: boolean;
  /** Starts redis-server on the same port and dir (the append-only file brings the data back). */
  start(): Promise<void>;
  /** SIGTERM (Redis writes its append-only file and exits) and wait for the exit. */
  stop(): Promise<void>;
  /** stop() and remove the dir. */
  close(): Promise<void>;
}

function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

/** A redis-server of our own, configured like the compose file's (append-only, so a restart keeps sessions). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-redis-'));
  const port = await freePort();
  const binary = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';
  let child: ChildProcess | undefined;
  const kill = () => child?.kill('SIGKILL');
  exitCleanups.add(kill);

  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      if (redis.running) return;
      child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--logfile', path.join(dir, 'redis.log'), '--daemonize', 'no'], {
        stdio: 'ignore',
      });
      const started = child;
      await waitUntil(
        `redis-server on port ${port}`,
        async () => {
          if (started.exitCode !== null) {
            throw new Error(`redis-server exited with ${started.exitCode}:\n${readLog(path.join(dir, 'redis.log'))}`);
          }
          return redisPing(port);
        },
        10_000,
      );
    },
    async stop() {
      const running = child;
      if (!running || !redis.running) return;
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
      await exitOf(running);
      clearTimeout(timer);
    },
    async close() {
      await redis.stop();
      exitCleanups.delete(kill);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await redis.start();
  } catch (error) {
    await redis.close();
    throw error;
  }
  return redis;
}

// ---------------------------------------------------------------------------------------------
// Postgres

export interface PrivatePostgres {
  port: number;
  /** The maintenance database (`postgres`), user postgres, trust. */
  adminUrl: string;
  dir: string;
  readonly running: boolean;
  /** URL of a database on this server. */
  urlFor(database: string): string;
  /** pg_ctl start on the same port and data dir. */
  start(): Promise<void>;
  /** pg_ctl stop -m fast: open connections are terminated. */
  stop(): Promise<void>;
  /** stop() and remove the dir. */
  close(): Promise<void>;
}

function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions[0];
  if (version === undefined) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (set PG_BIN)');
  return path.join(root, version, 'bin');
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * A Postgres cluster of our own: initdb into a temp dir, served on a free port with its socket in
 * that dir. initdb and pg_ctl refuse to run as root, so as root they run as the `postgres` user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const port = await freePort();
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const command = asRoot ? 'runuser' : path.join(bin, tool);
      const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
      const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => {
        if (code === 0) resolve();
        else reject(new Error(`${tool} ${args.join(' ')} failed (${code}):\n${output}\n${readLog(logFile)}`));
      });
    });
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    // Throwaway data: no need to wait for the disk.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ');
  let running = false;
  const stopNow = () => {
    if (!running) return;
    const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
    else execFileSync(path.join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
  };

  const postgres: PrivatePostgres = {
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    get running() {
      return running;
    },
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      if (running) return;
      await run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '30', '-o', serverOptions, 'start']);
      running = true;
    },
    async stop() {
      if (!running) return;
      await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
      running = false;
    },
    async close() {
      try {
        await postgres.stop();
      } finally {
        exitCleanups.delete(stopNow);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  exitCleanups.add(stopNow);
  try {
    await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-N', '-E', 'UTF8', '--locale=C']);
    await postgres.start();
  } catch (error) {
    await postgres.close().catch(() => undefined);
    throw error;
  }
  return postgres;
}

/** Runs one query on its own connection (no pool to survive a restart), failing fast. */
export async function queryOnce<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// The whole topology

export interface FaultCluster {
  redis: PrivateRedis;
  postgres: PrivatePostgres;
  nginx: RunningNginx;
  /** The app instances, in the order of nginx's upstream list. */
  apps: AppProcess[];
  /** The public address: nginx. */
  url: string;
  databaseUrl: string;
  /** The environment every instance gets. */
  env: Record<string, string>;
  /** Runs a query against the app database on a fresh connection. */
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Starts a fresh instance on the port of `apps[index]` (which must have exited). */
  replaceApp(index: number): Promise<AppProcess>;
  /** Prints the last lines of every instance's log (killed and replaced ones too) and nginx's error log. */
  printLogs(lines?: number): void;
  /** Stops nginx, the instances, Redis and Postgres and removes every temp dir. */
  close(): Promise<void>;
}

export interface FaultClusterOptions {
  instances?: number;
  /** Extra environment for the instances. */
  env?: Record<string, string>;
  /**
   * Print the instances' log lines as they come (default: only with FAULTS_VERBOSE=1; the lines
   * are kept either way, for printLogs() when a test fails).
   */
  echo?: boolean;
}

/** Private Postgres + Redis, migrated database, N instances (default 2) and nginx in front. */
export async function startFaultCluster(options: FaultClusterOptions = {}): Promise<FaultCluster> {
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    const errors: unknown[] = [];
    for (const closer of closers.splice(0).reverse()) {
      try {
        await closer();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length) throw new AggregateError(errors, 'fault cluster teardown failed');
  };
  try {
    const [startedPostgres, startedRedis] = await Promise.allSettled([startPrivatePostgres(), startPrivateRedis()]);
    if (startedPostgres.status === 'fulfilled') closers.push(() => startedPostgres.value.close());
    if (startedRedis.status === 'fulfilled') closers.push(() => startedRedis.value.close());
    if (startedPostgres.status === 'rejected') throw startedPostgres.reason;
    if (startedRedis.status === 'rejected') throw startedRedis.reason;
    const postgres = startedPostgres.value;
    const redis = startedRedis.value;
    await queryOnce(postgres.adminUrl, 'create database pinboard');
    const databaseUrl = postgres.urlFor('pinboard');
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }

    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      AUTO_MIGRATE: 'false',
      AUTO_SEED: 'false',
      // Behind nginx on this machine: trust X-Forwarded-* from loopback peers only.
      TRUST_PROXY: 'loopback',
      // Every test client comes from 127.0.0.1: the per-address limits must not be what is measured.
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      API_RATE_LIMIT_PER_IP: '1000000',
      // Load loops make pins whose images wait to be imported faster than a loaded machine imports
      // them: the per-person cap (as in tests/support/server.ts) must not be what is measured.
      FETCH_PENDING_PER_USER: '1000000',
      ...options.env,
    };
    const count = options.instances ?? 2;
    const echo = options.echo ?? process.env.FAULTS_VERBOSE === '1';
    const apps = await Promise.all(Array.from({ length: count }, (_, i) => startAppProcess(env, { name: `app${i + 1}`, echo })));
    const everStarted = [...apps];
    closers.push(() => Promise.all(apps.map((app) => app.stop())).then(() => undefined));
    const kills = () => {
      for (const app of apps) app.child.kill('SIGKILL');
    };
    exitCleanups.add(kills);
    closers.push(async () => {
      exitCleanups.delete(kills);
    });

    const nginx = await startNginx({ port: await freePort(), upstreams: apps.map((app) => app.port) });
    const stopNginx = () => nginx.child.kill('SIGKILL');
    exitCleanups.add(stopNginx);
    closers.push(async () => {
      exitCleanups.delete(stopNginx);
      await nginx.stop();
    });

    return {
      redis,
      postgres,
      nginx,
      apps,
      url: nginx.url,
      databaseUrl,
      env,
      query: (sql, params = []) => queryOnce(databaseUrl, sql, params),
      async replaceApp(index) {
        const old = apps[index];
        if (!old) throw new Error(`no instance ${index}`);
        if (old.child.exitCode === null && old.child.signalCode === null) throw new Error(`instance ${index} is still running`);
        const fresh = await startAppProcess(env, { port: old.port, name: `app${index + 1}'`, echo });
        apps[index] = fresh;
        everStarted.push(fresh);
        return fresh;
      },
      printLogs(lines = 40) {
        for (const [i, app] of everStarted.entries()) {
          const tail = app.logs.slice(-lines);
          console.log(`--- instance ${i + 1} (port ${app.port}, pid ${app.child.pid}): last ${tail.length} of ${app.logs.length} log lines\n${tail.join('\n')}`);
        }
        console.log(`--- nginx error log (last ${lines} lines)\n${nginx.errorLog().split('\n').slice(-lines).join('\n')}`);
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  }
}

/** Percentile (0..100) of a list of numbers, nearest rank; NaN for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export interface TimedAnswer {
  /** HTTP status, or 0 when there was no answer (connection error or the client's time limit). */
  status: number;
  ms: number;
  error?: string;
}

/** Counts per status ("0" = no answer), e.g. `{ "201": 40, "503": 12 }`. */
export function histogram(answers: TimedAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[String(answer.status)] = (counts[String(answer.status)] ?? 0) + 1;
  return counts;
}
