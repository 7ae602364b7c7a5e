import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { endSessionsOf } from '../account/end-sessions.ts';
import type { Config } from '../config.ts';
import { EventBus } from '../bus/event-bus.ts';
import { CachedSessionStore } from '../http/cached-session-store.ts';
import { ReadCache } from '../http/read-cache.ts';
import { createSessionStore } from '../http/session.ts';
import { attachRedisAdapter } from '../realtime/adapter.ts';
import { startCacheRelay } from '../realtime/cache-relay.ts';
import type { IO } from '../realtime/gateway.ts';
import { startRelay } from '../realtime/relay.ts';
import { userRoom } from '../realtime/rooms.ts';
import { adapterClients, connectRedis, type RedisTarget } from '../redis.ts';
import { startTokenRelay } from '../tokens/token-relay.ts';
import { TokenVerifier } from '../tokens/token-verifier.ts';

// The operator's command reaching the running instances of a services-mode deployment (docs/
// site-access.md): it joins their Socket.IO adapter on Redis as one more (socket-less) instance,
// and ends an account's sessions, sockets and tokens with the servers' own code: the sessions are
// destroyed in Redis and forgotten by every instance's cache, their sockets told `session:ended`
// and disconnected, the tokens forgotten by every instance's token cache (the database refuses a
// disabled account's tokens from then on).

export interface Ended {
  sessions: number;
  tokens: number;
}

/** The commands client and the adapter's publisher and subscriber, connected. */
async function connectClients(target: RedisTarget): Promise<[Redis, Redis, Redis]> {
  if (target.kind === 'single') {
    const redis = new Redis(target.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const clients: [Redis, Redis, Redis] = [redis, redis.duplicate(), redis.duplicate()];
    await Promise.all(clients.map((client) => client.connect()));
    return clients;
  }
  // A failure reaches the command that meets it, which the caller reports.
  const redis = await connectRedis(target, () => {});
  const [pub, sub] = adapterClients(redis);
  await Promise.all([pub.connect(), sub.connect()]);
  return [redis, pub, sub];
}

export async function endAccountEverywhere(config: Config, db: Kysely<DB>, target: RedisTarget, userId: number): Promise<Ended> {
  const [redis, pub, sub] = await connectClients(target);
  const io: IO = new Server();
  attachRedisAdapter(io, pub, sub, config.socketChannel);
  const events = new EventBus((error) => console.error(error));
  const store = createSessionStore({ redis, deployment: config.socketChannel, memoryMax: 1, perUser: 1, perAddress: 1 });
  const verifier = new TokenVerifier(db, { ttlMs: 0, max: 1 });
  const stops = [
    startCacheRelay(io, events, { reads: new ReadCache({ maxEntries: 1, ttlMs: 1 }), sessions: store instanceof CachedSessionStore ? store : undefined }, true),
    startTokenRelay(io, verifier, true),
    startRelay(io, events),
  ];
  try {
    const tokens = await db.selectFrom('api_tokens').select('secret_hash').where('user_id', '=', userId).execute();
    for (const { secret_hash } of tokens) await verifier.revoked(secret_hash);
    const sessions = await endSessionsOf({ store, events }, userId);
    // Any socket of the account whose session was already gone from the index.
    io.to(userRoom(userId)).emit('session:ended', {});
    io.in(userRoom(userId)).disconnectSockets(true);
    return { sessions, tokens: tokens.length };
  } finally {
    stops.forEach((stop) => stop());
    // No engine to close (nothing listens): only the adapter's subscriptions.
    await io.of('/').adapter.close();
    await Promise.all([redis, pub, sub].map((client) => client.quit()));
  }
}
