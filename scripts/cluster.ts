import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { hashPassword } from '../backend/auth/passwords.ts';
import { loadConfig } from '../backend/config.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';
import { type RunningNginx, startNginx } from './nginx.ts';

// `npm run cluster -- --instances 2 --base-port 8081 [--nginx 8080]`: the scale-out topology
// without Docker. Starts N app processes on consecutive ports sharing the local Postgres and Redis
// (DATABASE_URL, REDIS_URL; defaults are the machine's services). With --nginx PORT, Debian's
// nginx runs in front of them on that port with the deployment's own load-balancer settings
// (deploy/nginx/pinboard.conf, see scripts/nginx.ts). Ctrl-C stops everything.

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    'base-port': { type: 'string', default: '8081' },
    nginx: { type: 'string' },
  },
});
const instances = Number(values.instances);
const basePort = Number(values['base-port']);
const nginxPort = values.nginx === undefined ? undefined : Number(values.nginx);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) throw new Error('--instances must be 1..16');
if (!Number.isInteger(basePort) || basePort < 1 || basePort + instances - 1 > 65535) throw new Error('--base-port must be a port');
if (nginxPort !== undefined && (!Number.isInteger(nginxPort) || nginxPort < 1 || nginxPort > 65535)) throw new Error('--nginx must be a port');
if (nginxPort !== undefined && nginxPort >= basePort && nginxPort < basePort + instances) throw new Error('--nginx must not be one of the instance ports');

const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pinboard',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  AUTO_MIGRATE: 'false',
  AUTO_SEED: 'false',
  // Behind the local nginx: trust its X-Forwarded-* headers (it connects from loopback), so
  // client addresses, the scheme and the public host are the browser's.
  ...(nginxPort !== undefined ? { TRUST_PROXY: process.env.TRUST_PROXY ?? 'loopback' } : {}),
};

// Create the database if this machine does not have it yet.
const target = new URL(env.DATABASE_URL as string);
const adminUrl = new URL(env.DATABASE_URL as string);
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
  await seedDemoData(database.db, { demo: config.demo, hashPassword });
} finally {
  await database.close();
}

const children: ChildProcess[] = [];
let nginx: RunningNginx | undefined;
let stopping = false;
let failed = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  void nginx?.stop();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const ports: number[] = [];
for (let i = 0; i < instances; i++) {
  const port = basePort + i;
  ports.push(port);
  const child = spawn(process.execPath, ['backend/main.ts'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  // One instance failing to start (a port in use, …) stops the rest.
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`instance ${i + 1} exited (${code ?? signal}); stopping the cluster`);
      failed = true;
      stop();
    }
  });
  console.log(`instance ${i + 1}: http://localhost:${port} (pid ${child.pid})`);
}

if (nginxPort !== undefined) {
  // nginx would mark instances that are still starting as failed: wait until each answers.
  const deadline = Date.now() + 30_000;
  for (const port of ports) {
    while (!stopping) {
      const ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) {
        console.error(`instance on port ${port} did not answer /healthz within 30 s; stopping the cluster`);
        failed = true;
        stop();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  if (!stopping) {
    try {
      nginx = await startNginx({ port: nginxPort, host: '0.0.0.0', upstreams: ports, stdio: 'inherit' });
      console.log(`nginx: http://localhost:${nginxPort} (pid ${nginx.child.pid}) → instances on ${ports.join(', ')}; config and logs in ${nginx.dir}`);
      nginx.child.once('exit', (code, signal) => {
        if (!stopping) {
          console.error(`nginx exited (${code ?? signal}); stopping the cluster`);
          failed = true;
          stop();
        }
      });
      if (stopping) await nginx.stop();
    } catch (error) {
      console.error((error as Error).message);
      failed = true;
      stop();
    }
  }
}

await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)))));
await nginx?.stop();
process.exitCode = failed ? 1 : 0;
