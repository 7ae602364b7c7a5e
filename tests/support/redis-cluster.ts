import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A three-node Redis Cluster of our own (no replicas), for the sharded bus (REDIS_CLUSTER_URLS,
// docs/operations.md): each node a redis-server with cluster mode on, on a free loopback port
// whose cluster-bus port (port + 10000) is free too, in one temp dir. `redis-cli --cluster create`
// assigns the 16384 slots; the cluster is ready when every node says `cluster_state:ok`. A node
// can be stopped and started again on its port with its config file (nodes.conf: its id and
// slots), as an operator's restart does. Nothing of the machine's own Redis is touched.

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const binary = (name: string) => (existsSync(`/usr/bin/${name}`) ? `/usr/bin/${name}` : name);

export interface ClusterNode {
  port: number;
  readonly running: boolean;
  /** Starts the node again on its port, dir and config file; resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGTERM (SIGKILL with `kill`), and waits for the exit. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export interface RedisCluster {
  nodes: ClusterNode[];
  /** `redis://127.0.0.1:P1,redis://127.0.0.1:P2,…`: the value of REDIS_CLUSTER_URLS. */
  urls: string;
  /** Resolves once every running node reports `cluster_state:ok` (throws after `timeoutMs`). */
  waitUntilOk(timeoutMs?: number): Promise<void>;
  /** Stops every node and removes the temp dir. */
  close(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A loopback port that is free, and whose cluster-bus port (+10000) is free too. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.has(port) || taken.has(port + 10_000) || taken.has(port - 10_000)) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(binary('redis-cli'), ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 });
  return stdout;
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

function clusterNode(dir: string, port: number): ClusterNode {
  const nodeDir = path.join(dir, String(port));
  mkdirSync(nodeDir, { recursive: true });
  const log = path.join(nodeDir, 'redis.log');
  let child: ChildProcess | undefined;
  const node: ClusterNode = {
    port,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      if (node.running) return;
      // Append-only, like the compose file's Redis: a restarted node comes back with its slots
      // (nodes.conf) and its keys (sessions). A short node timeout so that the others notice fast.
      const started = spawn(
        binary('redis-server'),
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          nodeDir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          path.join(nodeDir, 'nodes.conf'),
          '--cluster-node-timeout',
          '2000',
          '--save',
          '',
          '--appendonly',
          'yes',
          '--logfile',
          log,
          '--daemonize',
          'no',
        ],
        { stdio: 'ignore' },
      );
      child = started;
      alive.add(started);
      started.once('exit', () => alive.delete(started));
      const deadline = Date.now() + 10_000;
      for (;;) {
        if (started.exitCode !== null) throw new Error(`redis-server (cluster node ${port}) exited with ${started.exitCode}:\n${readLog(log)}`);
        const pong = await cli(port, 'PING').catch(() => '');
        if (pong.trim() === 'PONG') return;
        if (Date.now() > deadline) throw new Error(`cluster node ${port} did not answer within 10 s:\n${readLog(log)}`);
        await sleep(50);
      }
    },
    async stop(signal = 'SIGTERM') {
      const running = child;
      if (!running || !node.running) return;
      running.kill(signal);
      const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
      await exitOf(running);
      clearTimeout(timer);
    },
  };
  return node;
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Three cluster nodes, the slots assigned, ready (`cluster_state:ok` on each). */
export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-redis-cluster-'));
  const taken = new Set<number>();
  const nodes: ClusterNode[] = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  const waitUntilOk = async (timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(nodes.filter((node) => node.running).map((node) => cli(node.port, 'CLUSTER', 'INFO').catch(() => '')));
      if (states.every((info) => info.includes('cluster_state:ok'))) return;
      if (Date.now() > deadline) throw new Error(`the Redis Cluster is not ok after ${timeoutMs} ms: ${states.map((s) => /cluster_state:\w+/.exec(s)?.[0] ?? '?').join(', ')}`);
      await sleep(100);
    }
  };
  try {
    for (let i = 0; i < size; i++) nodes.push(clusterNode(dir, await clusterPort(taken)));
    await Promise.all(nodes.map((node) => node.start()));
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await run(binary('redis-cli'), ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    await waitUntilOk();
  } catch (error) {
    await close();
    throw error;
  }
  return { nodes, urls: nodes.map((node) => `redis://127.0.0.1:${node.port}`).join(','), waitUntilOk, close };
}
