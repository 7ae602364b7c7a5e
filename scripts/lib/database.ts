import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Throwaway databases on the machine's Postgres, for the test suites and the benchmark (bench/).

/** The server the Postgres suites use. In CI it must be up: a missing service fails, never skips. */
const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Postgres is not reachable at ${ADMIN_DATABASE_URL} (set TEST_DATABASE_URL): ${(error as Error).message}`, { cause: error });
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database for one test file (or benchmark run) and returns its URL and a dropper. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pinboard_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
