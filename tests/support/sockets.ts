import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerEventName, ServerEventPayload, ServerToClientEvents, WatchAck } from '../../contract/events.ts';
import type { ApiClient } from './client.ts';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents> & {
  /** Every event received so far, in order. */
  received: Array<{ event: string; payload: unknown }>;
};

/** A real socket.io-client on the WebSocket transport, carrying the given client's cookies. */
export async function connectSocket(
  baseUrl: string,
  client?: ApiClient,
  options: { origin?: string; reconnection?: boolean; reconnectionDelay?: number; reconnectionDelayMax?: number } = {},
): Promise<TestSocket> {
  const headers: Record<string, string> = {};
  if (client?.cookies.size) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (options.origin) headers.origin = options.origin;
  const socket = io(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: options.reconnection ?? false,
    ...(options.reconnectionDelay !== undefined ? { reconnectionDelay: options.reconnectionDelay } : {}),
    ...(options.reconnectionDelayMax !== undefined ? { reconnectionDelayMax: options.reconnectionDelayMax } : {}),
    forceNew: true,
  }) as TestSocket;
  socket.received = [];
  socket.onAny((event: string, payload: unknown) => socket.received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect within 5 s')), 5000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return socket;
}

/** Resolves with the first `event` (already received or arriving within `timeoutMs`) matching `match`. */
export function nextEvent<E extends ServerEventName>(
  socket: TestSocket,
  event: E,
  match: (payload: ServerEventPayload<E>) => boolean = () => true,
  timeoutMs = 5000,
): Promise<ServerEventPayload<E>> {
  const seen = socket.received.find((r) => r.event === event && match(r.payload as ServerEventPayload<E>));
  if (seen) return Promise.resolve(seen.payload as ServerEventPayload<E>);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.offAny(listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (name: string, payload: unknown) => {
      if (name === event && match(payload as ServerEventPayload<E>)) {
        clearTimeout(timer);
        socket.offAny(listener);
        resolve(payload as ServerEventPayload<E>);
      }
    };
    socket.onAny(listener);
  });
}

export function watch(socket: TestSocket, pinIds: unknown, kind: 'pins:watch' | 'pins:unwatch' = 'pins:watch'): Promise<WatchAck> {
  return new Promise((resolve) => {
    (socket.emit as (event: string, payload: unknown, ack: (answer: WatchAck) => void) => void)(kind, pinIds, resolve);
  });
}

export function eventsNamed(socket: TestSocket, event: string): unknown[] {
  return socket.received.filter((r) => r.event === event).map((r) => r.payload);
}
