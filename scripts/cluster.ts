import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../backend/config.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';

// `npm run cluster -- --instances 2 --base-port 8081`: the scale-out topology without Docker.
// Starts N app processes on consecutive ports sharing the local Postgres and Redis (DATABASE_URL,
// REDIS_URL; defaults are the machine's services). Ctrl-C stops them all.

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    'base-port': { type: 'string', default: '8081' },
  },
});
const instances = Number(values.instances);
const basePort = Number(values['base-port']);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) throw new Error('--instances must be 1..16');

const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pinboard',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  AUTO_MIGRATE: 'false',
  AUTO_SEED: 'false',
};

// Create the database if this machine does not have it yet.
const target = new URL(env.DATABASE_URL);
const adminUrl = new URL(env.DATABASE_URL);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
const dbName = decodeURIComponent(target.pathname.slice(1));
const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
if (exists.rowCount === 0) await admin.query(`create database "${dbName.replaceAll('"', '""')}"`);
await admin.end();

// Migrate and seed once, before any instance starts (as the compose file's one-shot step does).
const config = loadConfig(env);
const database = await openDatabase(config.database);
try {
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { demo: config.demo });
} finally {
  await database.close();
}

const children: ChildProcess[] = [];
for (let i = 0; i < instances; i++) {
  const port = basePort + i;
  const child = spawn(process.execPath, ['backend/main.ts'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  console.log(`instance ${i + 1}: http://localhost:${port} (pid ${child.pid})`);
}

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
