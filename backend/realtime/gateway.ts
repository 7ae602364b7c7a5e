import { type Server as HttpServer, type IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Store } from 'express-session';
import { Server, type Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents, WatchAck } from '../../contract/events.ts';
import { WatchPayload } from '../../contract/events.ts';
import { isAllowedOrigin, type OriginPolicy } from '../http/origin.ts';
import type { InterServerEvents } from './inter-server.ts';
import { FEED_ROOM, pinRoom, sessionRoom, userRoom } from './rooms.ts';
import { type BudgetRules, ConnectionLimiter, type MessageBudget, roomsToJoin, spendMessage } from './socket-limits.ts';

/** What a socket remembers of its handshake and its message budget: a few primitives, no closures. */
interface SocketData extends MessageBudget {
  userId: number | undefined;
  sessionId: string | undefined;
}

export type IO = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type PinboardSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface GatewayOptions {
  session: RequestHandler;
  sessionStore: Store;
  originPolicy: OriginPolicy;
  /** Client messages allowed per socket per `messageWindowMs`. */
  messageLimit?: number;
  messageWindowMs?: number;
  /** Refused messages within one window after which the socket is disconnected. */
  refusedMessagesBeforeDisconnect?: number;
  /** Open sockets per client address (as TRUST_PROXY resolves it) on this instance. */
  socketsPerAddress?: number;
  /** Open sockets per signed-in session on this instance. */
  socketsPerSession?: number;
  /** How often signed-in sockets re-check that their session still exists (expiry, logout elsewhere). */
  sessionCheckMs?: number;
  onError?: (error: unknown, context: string) => void;
  /** These pins less the private ones the user (undefined: anonymous) may not see: a socket watches only those (docs/who-sees-what.md). */
  watchablePins: (userId: number | undefined, pinIds: readonly number[]) => Promise<number[]>;
}

interface HandshakeRequest extends IncomingMessage {
  session?: Request['session'] | undefined;
  sessionID?: string;
  _query?: Record<string, string>;
  /** Who the handshake's session belongs to, copied before the session object is let go. */
  pinboardIdentity?: { userId: number | undefined; sessionId: string | undefined };
}

/**
 * A response for express-session to wrap during the handshake. engine.io keeps its own upgrade
 * response (and through it the request) alive for the socket's whole life, so the session
 * middleware must not hang its per-request closures on it; a WebSocket upgrade never sends the
 * cookie anyway. This object is garbage once the handshake is over.
 */
function detachedResponse(): Response {
  const response = { writeHead() {}, write: () => true, end() {}, getHeader() {}, setHeader() {} };
  return response as unknown as Response;
}

/** The session middleware on the handshake request only (not on every engine.io request): who the socket is. */
function handshakeIdentity(session: RequestHandler) {
  return (req: HandshakeRequest, res: object, next: (error?: unknown) => void) => {
    if (req._query?.sid !== undefined) return next();
    session(req as Request, detachedResponse(), (error?: unknown) => {
      req.pinboardIdentity = { userId: req.session?.userId, sessionId: req.sessionID };
      req.session = undefined;
      // engine.io's upgrade response stays referenced (by a 'close' listener on the TCP socket) for
      // the connection's whole life, and it points at the request; we are its only middleware and
      // nothing reads it afterwards, so let the request go (~2 KB per socket).
      if (!(res instanceof ServerResponse)) Reflect.set(res, 'req', null);
      next(error);
    });
  };
}

/**
 * One socket per connection: the first takes the handshake request. Further CONNECT packets on it
 * (which socket.io accepts while the first is still connecting) would each be a socket with its
 * own rooms behind one counted connection: close the connection, as socket.io does for a CONNECT
 * on a namespace already connected.
 */
function oneSocketPerConnection(socket: PinboardSocket, next: (error?: Error) => void): void {
  const req = socket.conn.request as HandshakeRequest | null;
  if (req === null) {
    socket.conn.close();
    return next(new Error('One socket per connection.'));
  }
  // engine.io would keep the handshake request for the socket's whole life; nothing needs it.
  Reflect.set(socket.conn, 'request', null);
  const { userId, sessionId } = req.pinboardIdentity ?? { userId: undefined, sessionId: undefined };
  socket.data = { userId, sessionId, windowStart: Date.now(), used: 0, refused: 0 };
  next();
}

/** A signed-in socket's session may have ended since the handshake: check before serving it. */
function stillSignedIn(store: Store, { userId, sessionId }: SocketData): Promise<boolean> {
  if (userId === undefined || !sessionId) return Promise.resolve(true);
  return new Promise((resolve) => {
    store.get(sessionId, (error, session) => {
      if (error)
        resolve(true); // store down: keep serving public data, do not sign out
      else resolve(session?.userId === userId);
    });
  });
}

/**
 * Socket.IO on the API's HTTP server. The handshake runs the very same express-session middleware
 * and store, so a socket is its user. WebSocket transport only: any instance can serve any socket
 * without sticky sessions.
 */
export function createGateway(httpServer: HttpServer, options: GatewayOptions): IO {
  const connections = new ConnectionLimiter({ perAddress: options.socketsPerAddress ?? 50, perSession: options.socketsPerSession ?? 20 }, options.originPolicy.trustProxy);
  const io: IO = new Server(httpServer, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    // Runs on handshakes only, after the engine middleware below has read the session.
    allowRequest: (req: HandshakeRequest, callback) => {
      // Cross-site WebSocket hijacking: a browser always sends Origin; it must be our own site.
      if (!isAllowedOrigin(req, options.originPolicy)) return callback('Origin not allowed.', false);
      const { userId, sessionId } = req.pinboardIdentity ?? {};
      const refusal = connections.admit(req, userId !== undefined && sessionId ? sessionId : undefined);
      callback(refusal ?? null, refusal === undefined);
    },
  });

  io.engine.use(handshakeIdentity(options.session));

  const budget: BudgetRules = {
    limit: options.messageLimit ?? 30,
    windowMs: options.messageWindowMs ?? 10_000,
    refusedBeforeDisconnect: options.refusedMessagesBeforeDisconnect ?? 10,
  };

  const sessionStillValid = (data: SocketData) => stillSignedIn(options.sessionStore, data);

  const onWatchMessage = async (socket: PinboardSocket, kind: 'watch' | 'unwatch', payload: unknown, ack: unknown) => {
    const reply = (answer: WatchAck) => {
      if (typeof ack === 'function') ack(answer);
    };
    try {
      const parsed = WatchPayload.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid payload.' });
      if (!(await sessionStillValid(socket.data))) {
        // The answer first: once the socket is disconnected, its ack could not be delivered.
        reply({ ok: false, error: 'Your session has ended. Sign in again.' });
        return endSession(socket);
      }
      // Gone while its session was checked: rooms joined now would outlive it in the adapter.
      if (!socket.connected) return;
      if (kind === 'watch') {
        // A private pin the socket's user may not see is not watched (its ack says ok all the same:
        // as for a pin that does not exist, nothing tells it apart).
        const visible = await options.watchablePins(socket.data.userId, parsed.data.pinIds);
        if (!socket.connected) return;
        // Counted and joined with no await in between, so concurrent watches cannot pass the cap together.
        const join = roomsToJoin(socket.rooms, visible.map(pinRoom));
        if ('error' in join) return reply({ ok: false, error: join.error });
        await socket.join(join.rooms);
      } else await Promise.all(parsed.data.pinIds.map((id) => socket.leave(pinRoom(id))));
      reply({ ok: true });
    } catch (error) {
      options.onError?.(error, `pins:${kind}`);
      reply({ ok: false, error: 'Something went wrong.' });
    }
  };

  io.use(oneSocketPerConnection);

  io.on('connection', (socket) => {
    const { userId, sessionId } = socket.data;
    // Every incoming event spends the budget, unknown ones too; a refused one gets an error answer
    // when it asked for one, and is otherwise dropped.
    socket.use((event, next) => {
      const verdict = spendMessage(socket.data, budget);
      if (verdict === 'allow') return next();
      const ack: unknown = event.at(-1);
      if (typeof ack === 'function') (ack as (answer: WatchAck) => void)({ ok: false, error: 'Too many messages. Slow down.' });
      // The answer is written first: the connection closes only once its buffer has drained.
      if (verdict === 'disconnect') socket.disconnect(true);
    });
    void socket.join(FEED_ROOM);
    if (userId !== undefined && sessionId) void socket.join([userRoom(userId), sessionRoom(sessionId)]);
    socket.on('pins:watch', (payload, ack) => void onWatchMessage(socket, 'watch', payload, ack));
    socket.on('pins:unwatch', (payload, ack) => void onWatchMessage(socket, 'unwatch', payload, ack));
  });

  // One timer for all signed-in sockets (not one per socket), one store read per session.
  const sweep = setInterval(() => {
    const bySession = new Map<string, PinboardSocket[]>();
    for (const socket of io.of('/').sockets.values()) {
      const { sessionId } = socket.data;
      if (socket.data.userId === undefined || !sessionId) continue;
      const group = bySession.get(sessionId);
      if (group) group.push(socket);
      else bySession.set(sessionId, [socket]);
    }
    for (const sockets of bySession.values()) {
      void sessionStillValid((sockets[0] as PinboardSocket).data).then((valid) => {
        if (!valid) sockets.forEach(endSession);
      });
    }
  }, options.sessionCheckMs ?? 60_000);
  sweep.unref();
  httpServer.once('close', () => clearInterval(sweep));

  return io;
}

function endSession(socket: PinboardSocket): void {
  socket.emit('session:ended', {});
  socket.disconnect(true);
}
