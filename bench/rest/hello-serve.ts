import type { Server } from 'node:http';

// What a baseline server shares with the app's process (backend/main.ts) as seen from the bench:
// PORT from the environment, `{type: 'ready'}` over IPC once listening, exit 0 on SIGTERM/SIGINT.

export function serveUntilStopped(server: Server): void {
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.send?.({ type: 'ready' }));
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
