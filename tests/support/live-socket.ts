import type { ApiClient } from './client.ts';
import { SETTINGS } from './eventually.ts';
import { connectSocket, type TestSocket } from './sockets.ts';

/**
 * A socket as the web client opens one (frontend/live/socket.ts): WebSocket only, its reconnection
 * delays, the page's Origin. When the server itself closes the socket (an instance shutting down),
 * socket.io does not reconnect by itself; the web client then checks its session and opens the
 * socket again, which `reopenOnServerDisconnect` imitates.
 */
export async function liveSocket(baseUrl: string, client?: ApiClient, reopenOnServerDisconnect = true): Promise<TestSocket> {
  const socket = await connectSocket(baseUrl, client, { origin: baseUrl, reconnection: true, ...SETTINGS.socket });
  if (reopenOnServerDisconnect) {
    socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') setTimeout(() => socket.connect(), SETTINGS.socket.reconnectionDelay);
    });
  }
  return socket;
}
