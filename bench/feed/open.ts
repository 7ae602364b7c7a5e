import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../../db/connect.ts';
import type { DB } from '../../db/schema.ts';

export interface SeedingDatabase {
  db: Kysely<DB>;
  close(): Promise<void>;
}

// Bulk statements run for tens of seconds: no statement timeout while seeding.
const NO_TIMEOUT_MS = 3_600_000;

/**
 * The database to seed, on one connection. Postgres goes through db/connect.ts. A PGlite folder is
 * opened the way db/connect.ts opens it (PGlite behind pglite-socket, reached with `pg`), but here,
 * because its close must really shut PGlite down before the app process opens the same folder:
 * db/connect.ts's close ends the pool twice once Kysely has used it (Kysely's destroy ends it
 * already), and the second end's rejection, swallowed, skips stopping the socket server and
 * closing PGlite.
 */
export async function openForSeeding(target: DatabaseTarget): Promise<SeedingDatabase> {
  if (target.kind === 'postgres') {
    const database = await openDatabase(target, { statementTimeoutMs: NO_TIMEOUT_MS, poolMax: 1 });
    return { db: database.db, close: () => database.close() };
  }
  const pglite = await PGlite.create(target.dir);
  // Next to the data folder, so that whoever removes the folder around both removes the socket too.
  const socketDir = mkdtempSync(path.join(path.dirname(path.resolve(target.dir)), 'socket-'));
  const server = new PGLiteSocketServer({ db: pglite, path: path.join(socketDir, '.s.PGSQL.5432') });
  await server.start();
  const pool = new pg.Pool({ host: socketDir, port: 5432, user: 'postgres', database: 'postgres', max: 1, query_timeout: NO_TIMEOUT_MS });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    async close() {
      await db.destroy(); // ends the pool
      await server.stop();
      await pglite.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
