import type { RunningServer } from './server.ts';
import { watchedPinCount } from './realtime/socket-limits.ts';

/**
 * When this process was forked with an IPC channel (the live benchmark does this), answer
 * `{type: 'stats'}` with memory use after a full GC, the number of connected sockets and the pin
 * rooms they hold. A process started normally has no IPC channel and this does nothing.
 */
export function answerStatsRequests(server: RunningServer): void {
  if (!process.send) return;
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== 'stats') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const { heapUsed, heapTotal, rss, external } = process.memoryUsage();
    const namespace = server.io.of('/');
    let maxPinRoomsPerSocket = 0;
    for (const socket of namespace.sockets.values()) {
      maxPinRoomsPerSocket = Math.max(maxPinRoomsPerSocket, watchedPinCount(socket.rooms));
    }
    process.send?.({
      type: 'stats',
      heapUsed,
      heapTotal,
      rss,
      external,
      sockets: server.io.engine.clientsCount,
      namespaceSockets: namespace.sockets.size,
      pinRooms: watchedPinCount(namespace.adapter.rooms.keys()),
      maxPinRoomsPerSocket,
      gc: gc !== undefined,
    });
  });
  process.send({ type: 'ready', port: server.port });
}
