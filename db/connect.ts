import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { EMBEDDED_SETTINGS, openPGlite } from './pglite.ts';
import type { DB } from './schema.ts';

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** `settings`: Postgres settings over EMBEDDED_SETTINGS (db/pglite.ts). */
  | { kind: 'pglite'; dir: string; settings?: Readonly<Record<string, string>> };

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseTarget['kind'];
  /**
   * The pool under `db`, for a library that speaks to `pg` itself (the job queue: its schema
   * install and maintenance send several statements in one query and read every statement's rows,
   * which Kysely does not return). In the embedded mode it is the one connection, shared with `db`.
   */
  pool: pg.Pool;
  /**
   * The embedded database's WebAssembly memory in bytes (its Postgres heap: shared buffers and
   * every allocation), for the memory figures; undefined with PostgreSQL.
   */
  wasmMemoryBytes(): number | undefined;
  /** Throws unless the database answers within the connection timeout. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  poolMax?: number;
  /** How long to wait for a connection before failing the request (fail fast, docs/operations.md). */
  connectTimeoutMs?: number;
  /** Upper bound for any one statement. */
  statementTimeoutMs?: number;
  onPoolError?: (error: Error) => void;
}

/**
 * Opens the database for either run mode. Both go through the same `pg` driver and Kysely dialect:
 * the embedded mode runs PGlite in-process and exposes it on a private Unix socket with
 * pglite-socket, so type parsing, transactions and error codes behave exactly as on a real server.
 */
export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<Database> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
  const common = {
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: statementTimeoutMs + 1000,
    idleTimeoutMillis: 30_000,
  };

  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolMax ?? 10,
      statement_timeout: statementTimeoutMs,
      // No JIT: the app's queries are short, and a plan whose estimate crosses the JIT threshold
      // (search's typo expansion over a vocabulary of 900,000 words) lost ~500 ms compiling.
      options: '-c jit=off',
      ...common,
    });
    // A client losing its server must not crash the process. The pool listens for errors on idle
    // clients only; a checked-out client (e.g. inside a transaction) killed by a server restart
    // would emit an unhandled 'error' event, so every client gets its own listener too.
    pool.on('error', (error) => options.onPoolError?.(error));
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    return wrap(
      pool,
      'postgres',
      () => undefined,
      async () => {
        await endPool(pool);
      },
    );
  }

  // PGlite is one Postgres backend: one connection at a time, never shared across processes.
  const settings = { ...EMBEDDED_SETTINGS, ...target.settings };
  const pglite = target.dir === ':memory:' ? await openPGlite(undefined, settings) : await openPGliteDir(target.dir, settings);
  const socketDir = mkdtempSync(path.join(tmpdir(), 'pinboard-pglite-'));
  const server = new PGLiteSocketServer({ db: pglite, path: path.join(socketDir, '.s.PGSQL.5432') });
  await server.start();
  const pool = new pg.Pool({
    host: socketDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    ...common,
  });
  pool.on('error', (error) => options.onPoolError?.(error));
  // PGlite keeps its Emscripten module private; the figure is read, never relied on.
  const wasm = () => (pglite as unknown as { mod?: { wasmMemory?: WebAssembly.Memory } }).mod?.wasmMemory?.buffer.byteLength;
  return wrap(pool, 'pglite', wasm, async () => {
    await endPool(pool);
    await server.stop();
    await pglite.close();
    rmSync(socketDir, { recursive: true, force: true });
  });
}

/**
 * The embedded data folder holds everything, password hashes included, so it is private to the
 * account running the app: folders 0700, files 0600.
 */
async function openPGliteDir(dir: string, settings: Readonly<Record<string, string>>): Promise<PGlite> {
  // Private before PGlite writes anything. Postgres then creates its own files (new tables, WAL
  // segments) 0600 and folders 0700, as it derives their mode from the data folder's. A few files
  // it writes as plain 0666 less the umask (e.g. the relation cache file), so this process, the
  // database server, takes the umask a Postgres server sets for itself. (A worker thread cannot
  // change the umask; the private folder keeps such files out of reach anyway.)
  if (isMainThread) process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  makePrivate(dir);
  const pglite = await openPGlite(dir, settings);
  // A new folder's initial files come from the template (or PGlite's initdb) with mode 0666 and folders
  // 0777 less the umask; an older version's folder may be loose too.
  makePrivate(dir);
  return pglite;
}

/**
 * Takes group and other permissions off `dir` and everything under it (symlinks left alone). The
 * folder itself first: once it is 0700 nothing inside is reachable by another account, even before
 * the rest is done.
 */
function makePrivate(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { mode } = lstatSync(file);
    if (mode & 0o077) chmodSync(file, mode & 0o700);
  }
}

/**
 * Kysely's destroy ends the pool once Kysely has used it, and ending a pool twice rejects: a
 * rejection here used to skip the rest of the close (PGlite was never shut down).
 */
async function endPool(pool: pg.Pool): Promise<void> {
  if (!pool.ended) await pool.end();
}

function wrap(pool: pg.Pool, kind: Database['kind'], wasmMemoryBytes: () => number | undefined, closeAll: () => Promise<void>): Database {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    kind,
    pool,
    wasmMemoryBytes,
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy().catch(() => undefined);
      await closeAll().catch(() => undefined);
    },
  };
}
