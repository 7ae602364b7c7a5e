import { Cluster, type ClusterOptions, Redis } from 'ioredis';

/** Where Redis is: one server (REDIS_URL) or a Redis Cluster's seed nodes (REDIS_CLUSTER_URLS). */
export type RedisTarget = { kind: 'single'; url: string } | { kind: 'cluster'; urls: readonly string[] };

/** The configured Redis, if any: the cluster replaces the single server when both are set. */
export function redisTarget(config: { redisUrl?: string | undefined; redisClusterUrls?: readonly string[] | undefined }): RedisTarget | undefined {
  if (config.redisClusterUrls?.length) return { kind: 'cluster', urls: config.redisClusterUrls };
  return config.redisUrl ? { kind: 'single', url: config.redisUrl } : undefined;
}

// Fail fast: no offline queue and one retry per command, so a request made while Redis is down
// gets an error at once (and a 503) instead of hanging. It keeps reconnecting in the background,
// so the service recovers by itself when Redis returns.
const FAIL_FAST = { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000 } as const;

/**
 * A Redis client that fails fast (above). On one server, commands issued in one turn of the event
 * loop (a write's live-event publishes, the session reads of concurrent requests) go out in one
 * socket write instead of one each (autopipelining).
 */
export async function connectRedis(target: RedisTarget | string, onError: (error: Error) => void): Promise<Redis> {
  const where: RedisTarget = typeof target === 'string' ? { kind: 'single', url: target } : target;
  const redis =
    where.kind === 'single'
      ? new Redis(where.url, {
          ...FAIL_FAST,
          enableOfflineQueue: false,
          retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
          lazyConnect: true,
          enableAutoPipelining: true,
        })
      : clusterAsRedis(new Cluster(seedNodes(where.urls), clusterOptions(where.urls)));
  redis.on('error', onError);
  await redis.connect();
  return redis;
}

/**
 * The socket adapter's publisher and subscriber beside `redis`. The subscriber only listens:
 * autopipelining is for the connections that send. It sends nothing but its own
 * (re)subscriptions, which ioredis re-issues by itself on every reconnect without handling their
 * promise: so they wait for the connection (offline queue, no retry limit, no timeout) rather than
 * fail fast, as an unhandled rejection, when Redis drops again just as it came back. On a cluster
 * the subscriber holds one connection per master (sharded pub/sub: SSUBSCRIBE goes to the shard
 * that owns the channel's slot, and is re-sent there after a restart or a slot move).
 */
export function adapterClients(redis: Redis): [Redis, Redis] {
  if (!redis.isCluster) {
    return [redis.duplicate(), redis.duplicate({ enableAutoPipelining: false, enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined })];
  }
  const cluster = redis as unknown as Cluster;
  const base = { ...cluster.options, lazyConnect: true, shardedSubscribers: true };
  return [
    clusterAsRedis(cluster.duplicate(undefined, base)),
    clusterAsRedis(
      cluster.duplicate(undefined, {
        ...base,
        enableAutoPipelining: false,
        enableOfflineQueue: true,
        redisOptions: { ...cluster.options.redisOptions, maxRetriesPerRequest: null, commandTimeout: undefined },
      }),
    ),
  ];
}

function seedNodes(urls: readonly string[]): Array<{ host: string; port: number }> {
  return urls.map((url) => {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: Number(parsed.port || 6379) };
  });
}

/** The cluster's options: fail fast as above; credentials and TLS from the first seed URL. */
function clusterOptions(urls: readonly string[]): ClusterOptions {
  const first = new URL(urls[0] as string);
  return {
    enableOfflineQueue: false,
    lazyConnect: true,
    // Off on a cluster: an autopipelined batch whose commands meet MOVED for different slots (a
    // node restarted, the slot map stale) is not redirected, its commands fail instead; sent one
    // by one, each MOVED is followed (and the slot map refreshed).
    enableAutoPipelining: false,
    clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    slotsRefreshTimeout: 2000,
    redisOptions: {
      ...FAIL_FAST,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  };
}

/**
 * A Cluster answers the same commands as a Redis client (ioredis gives both one command
 * interface), and the app's Redis code is written for either: every multi-key command and script
 * keeps its keys in one hash slot (`{…}` tags; docs/operations.md), pipelines stay within one
 * slot, and `isCluster` tells the few places that act per node. The app's modules take the
 * `Redis` type, so the cluster is handed to them as one.
 */
function clusterAsRedis(cluster: Cluster): Redis {
  return cluster as unknown as Redis;
}

/**
 * A raw command. On a cluster, commands with keys go to the node that owns them (ioredis knows
 * each command's key positions); SCRIPT (LOAD, FLUSH, EXISTS) names no key and is sent to every
 * master, so that an EVALSHA finds its script whichever node owns its key. The first master's
 * answer is returned (a script's SHA is the same everywhere).
 */
export async function sendCommand(redis: Redis, command: string, ...args: string[]): Promise<unknown> {
  if (!redis.isCluster || command.toUpperCase() !== 'SCRIPT') return redis.call(command, ...args);
  const masters = (redis as unknown as Cluster).nodes('master');
  const answers = await Promise.all(masters.map((node) => node.call(command, ...args)));
  return answers[0];
}

/** Loads a Lua script (into every master of a cluster), so EVALSHA finds it; failures are left to EVAL. */
export function loadScript(redis: Redis, source: string): void {
  sendCommand(redis, 'SCRIPT', 'LOAD', source).catch(() => {});
}
