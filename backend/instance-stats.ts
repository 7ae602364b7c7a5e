import { getHeapSpaceStatistics } from 'node:v8';
import type { RunningServer } from './server.ts';
import { imageProcessingStats } from './images/process.ts';
import { watchedPinCount } from './realtime/socket-limits.ts';

/**
 * When this process was forked with an IPC channel (the live benchmark does this), answer
 * `{type: 'stats'}` with memory use after a full GC (the V8 heap, buffers, the embedded database's
 * WebAssembly memory, libvips' cache), the number of connected sockets and the pin rooms they hold. A process started normally has no IPC channel and this does nothing.
 */
export function answerStatsRequests(server: RunningServer): void {
  if (!process.send) return;
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== 'stats') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
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
      arrayBuffers,
      // Committed bytes per V8 heap space: a heap much larger than what it holds says which space kept it.
      heapSpaces: Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size])),
      wasmMemory: server.database.wasmMemoryBytes() ?? 0,
      images: imageProcessingStats(),
      sockets: server.io.engine.clientsCount,
      namespaceSockets: namespace.sockets.size,
      pinRooms: watchedPinCount(namespace.adapter.rooms.keys()),
      maxPinRoomsPerSocket,
      gc: gc !== undefined,
    });
  });
  process.send({ type: 'ready', port: server.port });
}
