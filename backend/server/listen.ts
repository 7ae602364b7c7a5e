import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as SocketServer } from 'socket.io';

/** Opens the HTTP server on PORT and HOST (0: any free port); resolves with the port it has. */
export async function listen(httpServer: Server, options: { port: number; host: string }): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  return (httpServer.address() as AddressInfo).port;
}

/**
 * Stops accepting (a balancer's next connection attempt is refused and goes elsewhere), drops this
 * instance's sockets, and gives in-flight requests `graceMs` before their connections are cut.
 */
export async function stopListening(httpServer: Server, io: SocketServer, graceMs: number): Promise<void> {
  await new Promise<void>((resolve) => {
    httpServer.close(() => resolve());
    httpServer.closeIdleConnections();
    // This instance's clients reconnect (to another instance behind the balancer) as soon as they
    // are dropped. `local`: with the Redis adapter a plain disconnectSockets would drop every
    // instance's sockets.
    io.local.disconnectSockets(true);
    io.engine.close();
    setTimeout(() => {
      httpServer.closeAllConnections();
      resolve();
    }, graceMs).unref();
  });
}
