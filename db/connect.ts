import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string };

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseTarget['kind'];
  /** Throws unless the database answers within the connection timeout. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  poolMax?: number;
  /** How long to wait for a connection before failing the request (fail fast, DESIGN §8). */
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
      ...common,
    });
    // A client losing its server must not crash the process. The pool listens for errors on idle
    // clients only; a checked-out client (e.g. inside a transaction) killed by a server restart
    // would emit an unhandled 'error' event, so every client gets its own listener too.
    pool.on('error', (error) => options.onPoolError?.(error));
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    return wrap(pool, 'postgres', async () => {
      await pool.end();
    });
  }

  // PGlite is one Postgres backend: one connection at a time, never shared across processes.
  const pglite = target.dir === ':memory:' ? await PGlite.create() : await openPGliteDir(target.dir);
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
  return wrap(pool, 'pglite', async () => {
    await pool.end();
    await server.stop();
    await pglite.close();
    rmSync(socketDir, { recursive: true, force: true });
  });
}

async function openPGliteDir(dir: string): Promise<PGlite> {
  mkdirSync(dir, { recursive: true });
  return PGlite.create(dir);
}

function wrap(pool: pg.Pool, kind: Database['kind'], closeAll: () => Promise<void>): Database {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    kind,
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
