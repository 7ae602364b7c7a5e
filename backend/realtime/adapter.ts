import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { IO } from './gateway.ts';

/**
 * Joins the instances' Socket.IO servers through Redis (docs/realtime.md): a room emit on one
 * instance reaches that room's sockets on all of them. On one Redis server, the classic adapter
 * (PUBLISH / PSUBSCRIBE on the `channel` key). On a Redis Cluster, the sharded adapter (Redis 7
 * SPUBLISH / SSUBSCRIBE): classic pub/sub on a cluster copies every message to every node over
 * the cluster bus, while a shard channel lives on the one node that owns its slot. Channels are
 * `<channel>#/#` for the namespace and, in the default "dynamic" mode, `<channel>#/#<room>#` for
 * each public room an instance has sockets in: a pin's events go only to the instances
 * watching it, and the rooms spread over the shards.
 */
export function attachRedisAdapter(io: IO, pub: Redis, sub: Redis, channel: string): void {
  io.adapter(pub.isCluster ? createShardedAdapter(pub, sub, { channelPrefix: channel }) : createAdapter(pub, sub, { key: channel }));
}
