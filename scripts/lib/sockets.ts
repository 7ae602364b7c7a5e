import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
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
  options: {
    origin?: string;
    reconnection?: boolean;
    reconnectionDelay?: number;
    reconnectionDelayMax?: number;
    /** Extra handshake headers, e.g. X-Forwarded-For as a trusted proxy would send it. */
    headers?: Record<string, string>;
  } = {},
): Promise<TestSocket> {
  const headers: Record<string, string> = { ...options.headers };
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
export function nextEvent<E extends ServerEventName>(socket: TestSocket, event: E, match: (payload: ServerEventPayload<E>) => boolean = () => true, timeoutMs = 5000): Promise<ServerEventPayload<E>> {
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

/**
 * Opens a WebSocket to the Socket.IO endpoint by hand and writes `messages` as text frames in one
 * TCP write, so the server reads them together — what no client library guarantees. Resolves once
 * the server sends a close frame or the connection ends, with the text messages it sent.
 */
export function rawWebSocketBurst(baseUrl: string, messages: string[]): Promise<{ upgraded: boolean; received: string[] }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const tcp = connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    const received: string[] = [];
    tcp.once('connect', () => {
      tcp.write(
        [
          'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1',
          `Host: ${hostname}:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      );
    });
    tcp.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return tcp.destroy();
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        tcp.write(Buffer.concat(messages.map(textFrame)));
      }
      // Server frames are unmasked: opcode byte, length (7 bits, or 16 bits after 126), payload.
      while (buffer.length >= 2) {
        const opcode = (buffer[0] as number) & 0x0f;
        const short = (buffer[1] as number) & 0x7f;
        const headerLength = short === 126 ? 4 : 2;
        if (short === 127 || buffer.length < headerLength) return tcp.destroy();
        const length = short === 126 ? buffer.readUInt16BE(2) : short;
        if (buffer.length < headerLength + length) return;
        const payload = buffer.subarray(headerLength, headerLength + length);
        buffer = buffer.subarray(headerLength + length);
        if (opcode === 0x1) received.push(payload.toString());
        if (opcode === 0x8) return tcp.destroy();
      }
    });
    tcp.once('error', reject);
    tcp.once('close', () => resolve({ upgraded, received }));
  });
}

/** A masked client text frame (RFC 6455 §5.2) for a payload under 126 bytes. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 126) throw new Error('textFrame: payload too long');
  const mask = randomBytes(4);
  const masked = payload.map((byte, i) => byte ^ (mask[i % 4] as number));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}
