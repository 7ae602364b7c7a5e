import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import type { WatchAck } from '../../contract/events.ts';
import { freePort, startAppProcess } from '../../scripts/lib/processes.ts';
import { connectSocket, type TestSocket } from '../../scripts/lib/sockets.ts';

// Presence's Redis cost (docs/presence.md; target: 10k viewers ≤ 500 Redis ops/s). Two app
// instances on a private redis-server (so that INFO commandstats counts nothing but presence and
// the instances' own traffic, not other programs on the shared Redis) with `viewers` anonymous
// sockets: joins, a steady window with heartbeats at the default settings, then leaves — once with
// every viewer on one pin, once with each viewer on a pin of their own (one script per viewer per
// heartbeat: the worst case for the per-pin batching). Prints command counts and rates.

interface CommandStats {
  /** Commands by name (lower case), as INFO commandstats counts them (also those run by scripts). */
  calls: Map<string, number>;
}

async function commandStats(redis: Redis): Promise<CommandStats> {
  const info = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const line of info.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls.set(match[1] as string, Number(match[2]));
  }
  return { calls };
}

function delta(before: CommandStats, after: CommandStats) {
  const byCommand = new Map<string, number>();
  for (const [name, n] of after.calls) {
    const d = n - (before.calls.get(name) ?? 0);
    if (d > 0 && name !== 'info') byCommand.set(name, d);
  }
  const scripts = (byCommand.get('evalsha') ?? 0) + (byCommand.get('eval') ?? 0);
  let total = 0;
  for (const n of byCommand.values()) total += n;
  // Redis counts a script call and each command it runs: round trips are the script calls plus
  // commands sent on their own (pub/sub publishes of the emits, pings).
  const inScripts = ['zadd', 'zrem', 'zremrangebyscore', 'zcard', 'zrange', 'pexpire', 'time'].reduce((sum, name) => sum + (byCommand.get(name) ?? 0), 0);
  return { byCommand, scripts, inScripts, total, sent: total - inScripts };
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 10_000;
    const probe = () => {
      const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      redis.on('error', () => {}); // not up yet: the connect below fails and is retried
      redis.connect().then(
        () => {
          redis.disconnect();
          resolve(child);
        },
        () => {
          redis.disconnect();
          if (Date.now() > deadline) reject(new Error('redis-server did not start'));
          else setTimeout(probe, 100);
        },
      );
    };
    probe();
  });
}

function send(socket: TestSocket, event: 'presence:join' | 'presence:leave', payload: { pinId: number }): Promise<WatchAck> {
  return new Promise((resolve) => {
    (socket.emit as (event: string, payload: unknown, ack: (answer: WatchAck) => void) => void)(event, payload, resolve);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the presence benchmark with its own Redis and two instances on `databaseUrl`; prints figures. */
export async function benchPresence(options: { databaseUrl: string; viewers: number; windowSeconds: number }): Promise<void> {
  const { viewers, windowSeconds } = options;
  const redisPort = await freePort();
  const redisServer = await startRedis(redisPort);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const env = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: redisUrl,
    SOCKET_CHANNEL: 'pinboard-bench-presence',
    AUTO_MIGRATE: 'false',
    AUTO_SEED: 'false',
    SOCKETS_PER_ADDRESS: '100000',
  };
  const one = await startAppProcess(env);
  const two = await startAppProcess(env);
  const stats = new Redis(redisUrl);
  const sockets: TestSocket[] = [];
  try {
    for (let i = 0; i < viewers; i += 50) {
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, viewers - i) }, (_, j) => connectSocket((i + j) % 2 === 0 ? one.url : two.url)))));
    }
    const heartbeatSeconds = 15; // the default PRESENCE_HEARTBEAT_SECONDS
    console.log(`presence: ${viewers} anonymous viewers on 2 instances, private Redis, heartbeat ${heartbeatSeconds} s, TTL 45 s (defaults), steady window ${windowSeconds} s`);
    for (const scenario of ['one pin', 'a pin each'] as const) {
      const pinOf = (i: number) => (scenario === 'one pin' ? 1 : 1 + i);
      await sleep(200);
      const s0 = await commandStats(stats);
      let started = performance.now();
      const joins = await Promise.all(sockets.map((socket, i) => send(socket, 'presence:join', { pinId: pinOf(i) })));
      const joinSeconds = (performance.now() - started) / 1000;
      const refused = joins.filter((ack) => !ack.ok).length;
      await sleep(1500); // the trailing coalesced emits
      const s1 = await commandStats(stats);
      started = performance.now();
      await sleep(windowSeconds * 1000);
      const steadySeconds = (performance.now() - started) / 1000;
      const s2 = await commandStats(stats);
      started = performance.now();
      await Promise.all(sockets.map((socket, i) => send(socket, 'presence:leave', { pinId: pinOf(i) })));
      await sleep(1500);
      const s3 = await commandStats(stats);

      const join = delta(s0, s1);
      const steady = delta(s1, s2);
      const leave = delta(s2, s3);
      const perSecond = (n: number) => (n / steadySeconds).toFixed(1);
      const list = (d: ReturnType<typeof delta>) =>
        [...d.byCommand]
          .sort((a, b) => b[1] - a[1])
          .map(([name, n]) => `${name} ${n}`)
          .join(', ');
      console.log(
        `presence [${scenario}]: ${viewers} joins in ${joinSeconds.toFixed(2)} s${refused ? ` (${refused} refused)` : ''}: ${join.scripts} script calls, ${join.total} Redis commands in all (${(join.total / viewers).toFixed(1)} per join) — ${list(join)}`,
      );
      console.log(
        `presence [${scenario}]: steady, ${viewers} viewers: ${perSecond(steady.scripts)} script calls/s, ${perSecond(steady.sent)} commands sent/s, ${perSecond(steady.total)} commands executed/s (with those inside scripts) — ${list(steady)}`,
      );
      console.log(`presence [${scenario}]: ${viewers} leaves: ${leave.scripts} script calls, ${leave.total} Redis commands in all — ${list(leave)}`);
    }
  } finally {
    for (const socket of sockets) socket.disconnect();
    stats.disconnect();
    await Promise.all([one.stop(), two.stop()]);
    redisServer.kill('SIGTERM');
  }
}
