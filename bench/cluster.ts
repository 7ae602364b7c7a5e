import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cpus, loadavg, tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Pin } from '../contract/pins.ts';
import { startNginx } from '../scripts/nginx.ts';
import { signUpUser } from '../scripts/lib/client.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { type AppProcess, freePort, startAppProcess } from '../scripts/lib/processes.ts';
import { connectSocket, type TestSocket, watch } from '../scripts/lib/sockets.ts';
import { startRedisCluster } from '../tests/support/redis-cluster.ts';
import { startReplicatedPostgres, writeThenReadPairs } from '../tests/support/replica.ts';
import { seedDatabase } from './feed/seed.ts';
import { prepareFixture, signOut } from './rest/fixture.ts';
import { percentile, runVisitors, type Visitor } from './rest/load.ts';
import { pgbenchPairs, preparePgbench } from './rest/pgbench.ts';
import { median, perSecond } from './rest/report.ts';
import { SCENARIOS } from './rest/scenarios.ts';

// `npm run bench:cluster [-- --instances 1,2,4 --seconds 5 --sockets 2000 --pairs 10000]`: the
// scaled deployment simulated on one machine (docs/operations.md): a private Postgres primary and
// its streaming replica (tests/support/replica.ts), a 3-node Redis Cluster
// (tests/support/redis-cluster.ts), and N app instances behind Debian's nginx. For each N it prints
// writes/s (favorite + unfavorite pairs, signed-in visitors), read req/s (shuffled pages, which
// read the replica) and the replica's lag p99 sampled while the writes run; then the fan-out of
// one live event to `sockets` sockets spread over the largest N (request → receipt p99), the
// write-then-read pairs through nginx (read-your-writes: violations must be 0), and pgbench of the
// app's own favorite statements on the same primary (Postgres alone), in the same run.
// A benchmark: it prints figures and never fails on them (the read-your-writes check exits 1 on a
// violation: that is a bug, not a timing).

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '1,2,4' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '40' },
    pins: { type: 'string', default: '20000' },
    sockets: { type: 'string', default: '2000' },
    pairs: { type: 'string', default: '10000' },
  },
});
const positive = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
  return n;
};
const INSTANCES = String(values.instances).split(',').map(Number);
if (INSTANCES.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw new Error('--instances: numbers 1..8, comma-separated');
const timing = { warmupSeconds: positive('warmup'), seconds: positive('seconds') };
const CONNECTIONS = positive('connections');
const SOCKETS = positive('sockets');
const PAIRS = positive('pairs');

const cleanups = cleanupsOnExit();
const log = (line: string) => console.log(line);
const ms = (n: number) => `${n.toFixed(1)} ms`;
log(
  `bench:cluster — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start; instances ${INSTANCES.join(', ')}; ${CONNECTIONS} connections, ${timing.warmupSeconds} s warm-up + ${timing.seconds} s measured`,
);

try {
  // The instances' logs (warnings and errors only) go to files here, not the terminal.
  const logs = mkdtempSync(path.join(tmpdir(), 'pinboard-bench-cluster-'));
  cleanups.push(async () => rmSync(logs, { recursive: true, force: true }));
  const postgres = await startReplicatedPostgres();
  cleanups.push(() => postgres.close());
  const redis = await startRedisCluster(3);
  cleanups.push(() => redis.close());
  log(`Primary on ${postgres.primary.port}, replica on ${postgres.replica.port}, Redis Cluster ${redis.urls}; instance logs in ${logs}`);
  const seeded = await seedDatabase({ kind: 'postgres', url: postgres.databaseUrl }, { pins: positive('pins') });
  await postgres.replica.caughtUp(120_000);
  log(`Seeded ${seeded.pins.toLocaleString('en-US')} pins, ${seeded.users} users in ${seeded.seconds.toFixed(1)} s; the replica caught up`);

  const ENV = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: postgres.databaseUrl,
    DATABASE_REPLICA_URL: postgres.replica.url,
    REDIS_URL: undefined,
    REDIS_CLUSTER_URLS: redis.urls,
    SOCKET_CHANNEL: `pinboard-bench-cluster-${randomBytes(4).toString('hex')}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DEMO_PASSWORD: randomBytes(16).toString('hex'),
    AUTO_MIGRATE: 'false',
    AUTO_SEED: 'false',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'loopback',
    API_RATE_LIMIT_PER_IP: '1000000000',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    SOCKETS_PER_ADDRESS: '100000',
    SOCKETS_PER_SESSION: '100000',
  };

  /** N instances behind nginx; stop() takes them all down. */
  async function deployment(n: number): Promise<{ url: string; apps: AppProcess[]; stop(): Promise<void> }> {
    const apps = await Promise.all(Array.from({ length: n }, (_, i) => startAppProcess(ENV, { logFile: path.join(logs, `${n}-${i + 1}.log`) })));
    cleanups.push(() => Promise.all(apps.map((app) => app.stop())).then(() => undefined));
    const nginx = await startNginx({ port: await freePort(), upstreams: apps.map((app) => app.port), socketsPerAddress: 60_000 });
    return {
      url: nginx.url,
      apps,
      async stop() {
        await nginx.stop();
        await Promise.all(apps.map((app) => app.stop()));
      },
    };
  }

  /** The replica's lag behind the primary, sampled every 50 ms until stop(): milliseconds of WAL replay behind. */
  function sampleLag(): { stop(): Promise<number[]> } {
    const primary = new pg.Client({ connectionString: postgres.databaseUrl });
    const replica = new pg.Client({ connectionString: postgres.replica.url });
    const lags: number[] = [];
    let running = true;
    const done = (async () => {
      await Promise.all([primary.connect(), replica.connect()]);
      while (running) {
        // The primary's position now, then how long the replica takes to replay past it.
        const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
        const started = performance.now();
        for (;;) {
          const replayed = await replica.query<{ behind: boolean }>('select pg_last_wal_replay_lsn() < $1::pg_lsn as behind', [rows[0]?.lsn]);
          if (!replayed.rows[0]?.behind || !running) break;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        lags.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await Promise.all([primary.end(), replica.end()]);
      return lags;
    })();
    return {
      stop() {
        running = false;
        return done;
      },
    };
  }

  const pairScenario = SCENARIOS.find((s) => s.name === 'favorite-pair');
  if (!pairScenario) throw new Error('no favorite-pair scenario');
  const rows: string[] = [];
  let last: Awaited<ReturnType<typeof deployment>> | undefined;
  let hotIds: number[] = [];
  for (const n of INSTANCES) {
    await last?.stop();
    const deployed = await deployment(n);
    last = deployed;
    const fixture = await prepareFixture(postgres.databaseUrl, [deployed.url], { hot: 1000, deepPages: 1, users: CONNECTIONS, pageSize: 50 });
    hotIds = fixture.hotIds;
    const spread = (make: (i: number) => Visitor) => Array.from({ length: CONNECTIONS }, (_, i) => make(i));
    const lag = sampleLag();
    const writes = await runVisitors(
      spread((i) => pairScenario.visitor(i, deployed.url, fixture)),
      timing,
    );
    const lags = (await lag.stop()).sort((a, b) => a - b);
    const reads = await runVisitors(
      spread(() => ({ url: deployed.url, jar: false, steps: [{ method: 'GET', next: () => ({ path: `/api/pins/?order=shuffle&seed=${Math.floor(Math.random() * 1e6)}&limit=25` }) }] })),
      timing,
    );
    await signOut(fixture.users);
    const failed = (m: typeof writes) => [...m.statuses].filter(([status]) => status >= 400).reduce((sum, [, count]) => sum + count, 0);
    rows.push(
      `${String(n).padStart(9)}  ${perSecond(writes).toFixed(0).padStart(12)}  ${perSecond(reads).toFixed(0).padStart(10)}  ${ms(percentile(lags, 99)).padStart(14)}  ${String(failed(writes) + failed(reads) + writes.errors + reads.errors).padStart(8)}`,
    );
    log(`  ${n} instance(s): ${perSecond(writes).toFixed(0)} pairs/s, ${perSecond(reads).toFixed(0)} reads/s, replica lag p99 ${ms(percentile(lags, 99))} (${lags.length} samples)`);
  }

  // Fan-out: one pin watched by SOCKETS sockets through nginx (spread over the instances), favorites toggled.
  const deployed = last;
  if (!deployed) throw new Error('no deployment ran');
  const { client } = await signUpUser(deployed.url, 'fanout');
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Fan-out', imageUrl: 'https://a.test/b.png' })).body;
  const sockets: TestSocket[] = [];
  for (let i = 0; i < SOCKETS; i += 100) sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, SOCKETS - i) }, () => connectSocket(deployed.url)))));
  await Promise.all(sockets.map((socket) => watch(socket, { pinIds: [pin.id] })));
  const fanout: number[] = [];
  let delivered = 0;
  const toggles = 20;
  let favoriteId: number | undefined;
  for (let i = 0; i < toggles; i++) {
    const receipts = sockets.map(
      (socket) =>
        new Promise<number>((resolve) => {
          const timer = setTimeout(() => resolve(Number.NaN), 10_000);
          socket.once('pin:likes', () => {
            clearTimeout(timer);
            resolve(performance.now());
          });
        }),
    );
    const sentAt = performance.now();
    const answer = favoriteId === undefined ? await client.post<{ id: number }>('/api/favorites/', { pin_id: pin.id }) : await client.delete(`/api/favorites/${favoriteId}`);
    if (answer.status >= 400) log(`  fan-out write answered ${answer.status}`);
    favoriteId = favoriteId === undefined ? (answer.body as { id: number }).id : undefined;
    for (const at of await Promise.all(receipts)) {
      if (Number.isNaN(at)) continue;
      delivered += 1;
      fanout.push(at - sentAt);
    }
  }
  for (const socket of sockets) socket.disconnect();
  fanout.sort((a, b) => a - b);

  // Read-your-writes through the balancer: write, read straight back, on any instance.
  const ryw = await writeThenReadPairs(deployed.url, { pairs: PAIRS, writers: 10 });
  await deployed.stop();

  // Postgres alone: the same favorite statements through pgbench, on the same primary, app stopped.
  const pgbench = await preparePgbench(postgres.databaseUrl, 20, hotIds);
  const alone = median([await pgbenchPairs(postgres.databaseUrl, pgbench, timing.seconds), await pgbenchPairs(postgres.databaseUrl, pgbench, timing.seconds)]);

  log('\n=== bench:cluster results ===');
  log(`${cpus().length} CPUs; load average at the end ${loadavg()[0]?.toFixed(1)}; primary + streaming replica, 3-node Redis Cluster, nginx; ${seeded.pins.toLocaleString('en-US')} pins`);
  log('instances  writes pairs/s  reads req/s  replica lag p99  failures');
  for (const row of rows) log(row);
  log(`Postgres alone (pgbench, 20 clients, the app's favorite_add + favorite_remove): ${alone.toFixed(0)} pairs/s`);
  log(
    `fan-out: ${SOCKETS} sockets on ${deployed.apps.length} instances, ${toggles} likes: ${delivered} of ${SOCKETS * toggles} delivered; request → receipt p50 ${ms(percentile(fanout, 50))}, p99 ${ms(percentile(fanout, 99))}`,
  );
  log(
    `read-your-writes through nginx: ${PAIRS} write-then-read pairs, ${ryw.violations.length} reads missing their write; replica answered ${ryw.answeredBy.replica}, primary ${ryw.answeredBy.primary}`,
  );
  for (const line of ryw.violations.slice(0, 10)) log(`  ${line}`);
  process.exitCode = ryw.violations.length ? 1 : 0;
} finally {
  await cleanups.run();
}
