// Where the app starts live updates, and how it opens a socket (./connection.ts decides when, and
// owns it): socket.io-client on the WebSocket transport only (the server accepts nothing else, so a
// load balancer needs no stickiness), same origin, path /socket.io. socket.io-client is loaded on
// demand, after the first screen, to keep it out of the initial bundle.
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/events.ts';
import type { Store } from '../state/store.ts';
import { createLiveClient, liveClientFor, type LiveClient } from './client.ts';
import type { LiveSocket } from './connection.ts';

async function openSocket(): Promise<LiveSocket> {
  const { io } = await import('socket.io-client');
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({
    path: '/socket.io',
    transports: ['websocket'],
    // A new engine (new WebSocket, so the current session cookie) for every socket.
    forceNew: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 5_000,
    // An attempt that has not connected after this long is given up and tried again (the default,
    // 20 s, is long: a WebSocket that closes before the Engine.IO handshake only ends this way).
    timeout: 10_000,
  });
  return socket;
}

/** Starts live updates for `store` (once; later calls return the same client). */
export function startLiveUpdates(store: Store): LiveClient {
  const existing = liveClientFor(store);
  if (existing) return existing;
  const client = createLiveClient(store, { openSocket });
  client.start();
  return client;
}
