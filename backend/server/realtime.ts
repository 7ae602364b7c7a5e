import type { Logger } from 'pino';
import type { Server as SocketServer } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/events.ts';
import { PRESENCE_LIMITS } from '../../contract/presence.ts';
import { attachRedisAdapter } from '../realtime/adapter.ts';
import { startHeadAnnouncer } from '../realtime/head.ts';
import type { Config } from '../config.ts';
import type { EventBus } from '../bus/event-bus.ts';
import { startCacheRelay } from '../realtime/cache-relay.ts';
import { createGateway } from '../realtime/gateway.ts';
import { boardMemberships, isBoardMember, presentUsers } from '../realtime/presence-access.ts';
import { RedisPresenceStore } from '../realtime/presence-redis.ts';
import { MemoryPresenceStore } from '../realtime/presence-store.ts';
import { PresenceService } from '../realtime/presence.ts';
import { startRelay } from '../realtime/relay.ts';
import { watchablePinIds } from '../visibility/pin-access.ts';
import { startTokenRelay } from '../tokens/token-relay.ts';
import type { Data } from './data.ts';
import type { Web } from './web.ts';

export interface Realtime {
  io: SocketServer<ClientToServerEvents, ServerToClientEvents>;
  /** Stops telling the sockets the change log's head. */
  stopHeads(): void;
  /** The dropped sockets' presence leaves, sent while Redis is still open. */
  leave(): Promise<void>;
  /** Stops relaying events to the sockets and caches (after the last write has announced its). */
  stop(): void;
}

/**
 * The live side on the HTTP server: the Socket.IO gateway, presence, the change log's head, the
 * Redis adapter between instances, and the relays from the bus to rooms and caches.
 */
export function startRealtime(config: Config, data: Data, web: Web, events: EventBus, logger: Logger): Realtime {
  const { database, redis, pubSub } = data;
  const peers = pubSub !== undefined;
  const io = createGateway(web.httpServer, {
    session: web.session,
    sessionStore: web.sessions?.uncached ?? web.sessionStore,
    originPolicy: web.originPolicy,
    sessionCheckMs: config.socketSessionCheckMs,
    socketsPerAddress: config.sockets.perAddress,
    socketsPerSession: config.sockets.perSession,
    messageLimit: config.sockets.messagesPerWindow,
    messageWindowMs: config.sockets.windowMs,
    refusedMessagesBeforeDisconnect: config.sockets.refusedBeforeDisconnect,
    onError: (error, context) => logger.error({ err: error, context }, 'socket handler failed'),
    watchablePins: (userId, pinIds) => watchablePinIds(database.db, userId, pinIds),
  });
  // Presence (docs/presence.md): counted in Redis when there is one (shared by the instances), else here.
  const presenceTtl = { ttlMs: config.presence.ttlMs, listMax: PRESENCE_LIMITS.boardUsers };
  const presence = new PresenceService(io, {
    store: redis ? new RedisPresenceStore(redis, { prefix: `${config.socketChannel}:`, ...presenceTtl }) : new MemoryPresenceStore(presenceTtl.ttlMs, presenceTtl.listMax),
    heartbeatMs: config.presence.heartbeatMs,
    peers,
    isBoardMember: (boardId, userId) => isBoardMember(database.db, boardId, userId),
    mayWatchPin: async (pinId, userId) => (await watchablePinIds(database.db, userId, [pinId])).length > 0,
    boardMemberships: (pairs) => boardMemberships(database.db, pairs),
    usernames: (ids) => presentUsers(database.db, ids),
    onError: (error, context) => logger.warn({ err: error, context }, 'presence failed'),
  });
  io.on('connection', (socket) => presence.attach(socket));
  const heads = startHeadAnnouncer(io, database.db, {
    intervalMs: config.changes.headIntervalMs,
    onError: (error) => logger.warn({ err: error }, 'change-log head not read'),
  });
  if (pubSub) {
    // Pub/sub adapter (sharded on a cluster): a room emit on one instance reaches that room's sockets on all instances.
    const [pub, sub] = pubSub;
    attachRedisAdapter(io, pub, sub, config.socketChannel);
    io.of('/').adapter.on('error', (error: unknown) => logger.warn({ err: error }, 'socket.io adapter error'));
    // Back from a Redis outage: invalidations sent meanwhile were lost, so nothing cached is trusted.
    // And the live events of other instances sent meanwhile: this instance's clients hear the
    // log's head, and pull what they missed (backend/realtime/head.ts). On a cluster the client
    // stays ready while one shard restarts: its subscribers say when they have subscribed again.
    const resync = () => {
      web.reads.clear();
      web.sessions?.forgetAll();
      web.tokens.verifier.forgetAll();
      heads.announce();
    };
    sub.on(sub.isCluster ? 'subscribersReady' : 'ready', resync);
  }
  // Before the socket relay: an instance drops a stale answer before its clients hear of the change.
  const stops = [
    startCacheRelay(io, events, { reads: web.reads, sessions: web.sessions }, peers),
    startTokenRelay(io, web.tokens.verifier, peers),
    startRelay(io, events),
    // Board presence follows membership: a removed member, or everyone on a deleted board, leaves it.
    events.onChange('board:member-removed', ({ boardId, userId }) => presence.evict(boardId, userId)),
    events.onChange('board:deleted', ({ boardId }) => presence.evict(boardId)),
  ];
  return {
    io,
    stopHeads: () => heads.stop(),
    // Bounded: an entry left behind expires by itself.
    leave: () => Promise.race([presence.close(), new Promise<void>((resolve) => setTimeout(resolve, 3_000).unref())]),
    stop: () => stops.forEach((stop) => stop()),
  };
}
