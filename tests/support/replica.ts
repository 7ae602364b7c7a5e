import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pin, PinList } from '../../contract/pins.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type PrivatePostgres, queryOnce, startPrivatePostgres } from './faults.ts';
import { signUpUser } from './client.ts';
import { freePort } from './processes.ts';

// A primary and its streaming replica, both private to the test, without Docker: the primary is
// tests/support/faults.ts' own cluster (initdb's defaults: wal_level=replica, replication allowed
// from 127.0.0.1 with trust), the replica is made from it with `pg_basebackup -R` (which writes
// standby.signal and primary_conninfo) into a temp dir and served on a free port. As root the
// Postgres tools run as the `postgres` user, as in faults.ts.

export interface PrivateReplica {
  port: number;
  /** The app database on the replica (read-only). */
  url: string;
  readonly running: boolean;
  start(): Promise<void>;
  /** pg_ctl stop -m fast. */
  stop(): Promise<void>;
  /** Stops applying the primary's WAL (it is still received): the replica's data stays as it is. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Until the replica has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
}

export interface ReplicatedPostgres {
  primary: PrivatePostgres;
  /** The migrated app database on the primary. */
  databaseUrl: string;
  replica: PrivateReplica;
  close(): Promise<void>;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (set PG_BIN)');
  return path.join(root, versions[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

function runTool(tool: string, args: string[], logFile: string): Promise<void> {
  const bin = binDir();
  return new Promise<void>((resolve, reject) => {
    const command = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) return resolve();
      let log = '(no log)';
      try {
        log = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      } catch {
        // No log yet.
      }
      reject(new Error(`${tool} ${args.join(' ')} failed (${code}):\n${output}\n${log}`));
    });
  });
}

/**
 * An app process on the primary that reads from the replica: already migrated (by
 * startReplicatedPostgres), sessions in memory, and the limits out of the way of a test's or a
 * benchmark's crowd of writers from one address. `extra` adds or overrides.
 */
export function replicaAppEnv(databases: ReplicatedPostgres, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    DATABASE_URL: databases.databaseUrl,
    DATABASE_REPLICA_URL: databases.replica.url,
    REDIS_URL: undefined,
    AUTO_MIGRATE: 'false',
    AUTO_SEED: 'false',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    API_RATE_LIMIT_PER_IP: '1000000',
    FETCH_PENDING_PER_USER: '1000000',
    ...extra,
  };
}

/** A fresh primary with the app's database migrated, and a streaming replica of it. */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const primary = await startPrivatePostgres();
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-replica-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  let running = false;
  const stopNow = () => {
    if (!running) return;
    const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
    const pgCtl = path.join(binDir(), 'pg_ctl');
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { stdio: 'ignore' });
    else execFileSync(pgCtl, args, { stdio: 'ignore' });
  };
  process.once('exit', stopNow);
  const close = async () => {
    try {
      await replica.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      process.off('exit', stopNow);
      await primary.close();
    }
  };
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/pinboard`;
  const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c max_connections=100'].join(' ');
  const replica: PrivateReplica = {
    port,
    url,
    get running() {
      return running;
    },
    async start() {
      if (running) return;
      await runTool('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '30', '-o', options, 'start'], logFile);
      running = true;
    },
    async stop() {
      if (!running) return;
      await runTool('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], logFile);
      running = false;
    },
    async pauseReplay() {
      await queryOnce(url, 'select pg_wal_replay_pause()');
    },
    async resumeReplay() {
      await queryOnce(url, 'select pg_wal_replay_resume()');
    },
    async caughtUp(timeoutMs = 30_000) {
      const [target] = await queryOnce<{ lsn: string }>(primary.adminUrl, 'select pg_current_wal_insert_lsn()::text as lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await queryOnce<{ done: boolean }>(url, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [target?.lsn]);
        if (row?.done) return;
        if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${target?.lsn} in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  try {
    await queryOnce(primary.adminUrl, 'create database pinboard');
    const databaseUrl = primary.urlFor('pinboard');
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    if (asRoot) {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, id('-u'), id('-g'));
    }
    await runTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast'], logFile);
    await replica.start();
    await replica.caughtUp();
    return { primary, databaseUrl, replica, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

export interface PairsResult {
  ms: number;
  /** Reads that did not show the write just before them. */
  violations: string[];
  /** Which database answered the reads (the `pinboard-read-from` header). */
  answeredBy: { replica: number; primary: number };
}

/**
 * `pairs` write-then-read pairs, split over `writers` new users writing at once: a private pin is
 * created, then the writer's own list must start with it; or its title is edited, then the pin
 * must carry the new title (both reads go through the replica reader).
 */
export async function writeThenReadPairs(baseUrl: string, { pairs, writers }: { pairs: number; writers: number }): Promise<PairsResult> {
  const users = await Promise.all(Array.from({ length: writers }, (_, i) => signUpUser(baseUrl, `ryw${i}`)));
  const violations: string[] = [];
  const answeredBy = { replica: 0, primary: 0 };
  const count = (response: { headers: Headers }) => {
    const by = response.headers.get('pinboard-read-from');
    if (by === 'replica' || by === 'primary') answeredBy[by]++;
  };
  const started = performance.now();
  await Promise.all(
    users.map(async ({ client, user }, w) => {
      let pin: Pin | undefined;
      for (let i = w; i < pairs; i += writers) {
        const title = `w${w} write ${i}`;
        if (pin === undefined || i % 2 === 0) {
          const created = await client.post<Pin>('/api/pins/', { title, imageUrl: 'https://a.test/x.png', visibility: 'private' });
          if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
          pin = created.body;
          const list = await client.get<PinList>(`/api/pins/?userId=${user.id}&limit=5`);
          count(list);
          if (list.body.pins[0]?.id !== pin.id) violations.push(`${title}: own list starts with ${list.body.pins[0]?.id}, not ${pin.id}`);
        } else {
          const edited = await client.put<Pin>(`/api/pins/${pin.id}`, { title });
          if (edited.status !== 200) throw new Error(`edit: ${edited.status} ${JSON.stringify(edited.body)}`);
          const read = await client.get<Pin>(`/api/pins/${pin.id}`);
          count(read);
          if (read.body.title !== title) violations.push(`${title}: read "${read.body.title}"`);
        }
      }
    }),
  );
  return { ms: performance.now() - started, violations, answeredBy };
}
