import type { RunningServer } from './server.ts';

/**
 * When this process was forked with an IPC channel (the live benchmark does this), answer
 * `{type: 'stats'}` with heap use after a full GC and the number of connected sockets.
 * A process started normally has no IPC channel and this does nothing.
 */
export function answerStatsRequests(server: RunningServer): void {
  if (!process.send) return;
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== 'stats') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    process.send?.({
      type: 'stats',
      heapUsed: process.memoryUsage().heapUsed,
      sockets: server.io.engine.clientsCount,
      gc: gc !== undefined,
    });
  });
  process.send({ type: 'ready', port: server.port });
}
