import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Store } from 'express-session';
import { Server, type Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents, WatchAck } from '../../contract/events.ts';
import { WatchPayload } from '../../contract/events.ts';
import { isAllowedOrigin, type OriginPolicy } from '../http/origin.ts';
import { FEED_ROOM, pinRoom, sessionRoom, userRoom } from './rooms.ts';

type IO = Server<ClientToServerEvents, ServerToClientEvents>;
type PinboardSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

export interface GatewayOptions {
  session: RequestHandler;
  sessionStore: Store;
  originPolicy: OriginPolicy;
  /** Client messages allowed per socket per `messageWindowMs`. */
  messageLimit?: number;
  messageWindowMs?: number;
  /** How often a signed-in socket re-checks that its session still exists (expiry, logout elsewhere). */
  sessionCheckMs?: number;
  onError?: (error: unknown, context: string) => void;
}

interface HandshakeRequest extends IncomingMessage {
  session?: Request['session'];
  sessionID?: string;
  _query?: Record<string, string>;
}

/**
 * Socket.IO on the API's HTTP server. The handshake runs the very same express-session middleware,
 * so a socket is its user. WebSocket transport only: any instance can serve any socket without
 * sticky sessions.
 */
export function createGateway(httpServer: HttpServer, options: GatewayOptions): IO {
  const io: IO = new Server(httpServer, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    // Cross-site WebSocket hijacking: a browser always sends Origin; it must be our own site.
    allowRequest: (req, callback) => callback(null, isAllowedOrigin(req, options.originPolicy)),
  });

  // The session middleware only on the handshake request (not on every engine.io request).
  io.engine.use((req: HandshakeRequest, res: Response, next: (error?: unknown) => void) => {
    if (req._query?.sid === undefined) options.session(req as Request, res, next);
    else next();
  });

  const limit = options.messageLimit ?? 30;
  const windowMs = options.messageWindowMs ?? 10_000;

  io.on('connection', (socket) => {
    const req = socket.request as HandshakeRequest;
    const userId = req.session?.userId;
    const sessionId = req.sessionID;
    // Keep only what we need from the handshake: the request object (and its session) would
    // otherwise stay in memory for the socket's whole life (Socket.IO's memory-usage advice).
    Reflect.set(socket.conn, 'request', null);
    void socket.join(FEED_ROOM);
    if (userId !== undefined && sessionId) {
      void socket.join([userRoom(userId), sessionRoom(sessionId)]);
    }

    let windowStart = Date.now();
    let used = 0;
    const allowMessage = () => {
      const now = Date.now();
      if (now - windowStart > windowMs) {
        windowStart = now;
        used = 0;
      }
      used += 1;
      return used <= limit;
    };

    /** A signed-in socket's session may have ended since the handshake: check before serving it. */
    const sessionStillValid = (): Promise<boolean> => {
      if (userId === undefined || !sessionId) return Promise.resolve(true);
      return new Promise((resolve) => {
        options.sessionStore.get(sessionId, (error, data) => {
          if (error) resolve(true); // store down: keep serving public data, do not sign out
          else resolve(data?.userId === userId);
        });
      });
    };

    const handle = (kind: 'watch' | 'unwatch') => async (payload: unknown, ack: unknown) => {
      const reply = (answer: WatchAck) => {
        if (typeof ack === 'function') ack(answer);
      };
      try {
        if (!allowMessage()) return reply({ ok: false, error: 'Too many messages. Slow down.' });
        const parsed = WatchPayload.safeParse(payload);
        if (!parsed.success) return reply({ ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid payload.' });
        if (!(await sessionStillValid())) {
          endSession(socket);
          return reply({ ok: false, error: 'Your session has ended. Sign in again.' });
        }
        const rooms = [...new Set(parsed.data.pinIds)].map(pinRoom);
        if (kind === 'watch') await socket.join(rooms);
        else await Promise.all(rooms.map((room) => socket.leave(room)));
        reply({ ok: true });
      } catch (error) {
        options.onError?.(error, `pins:${kind}`);
        reply({ ok: false, error: 'Something went wrong.' });
      }
    };
    socket.on('pins:watch', handle('watch'));
    socket.on('pins:unwatch', handle('unwatch'));

    if (userId !== undefined) {
      const timer = setInterval(() => {
        void sessionStillValid().then((valid) => {
          if (!valid) endSession(socket);
        });
      }, options.sessionCheckMs ?? 60_000);
      timer.unref();
      socket.on('disconnect', () => clearInterval(timer));
    }
  });

  return io;
}

function endSession(socket: PinboardSocket): void {
  socket.emit('session:ended', {});
  socket.disconnect(true);
}
