import { afterAll, beforeAll } from 'vitest';
import type { ApiClient } from './client.ts';
import { type ServerView, type StartOptions, startServer, type TestServer } from './server.ts';
import { connectSocket, type TestSocket } from './sockets.ts';

/** Options now, or worked out when the hook runs (e.g. from a fixture site started in an earlier hook). */
export type OptionsSource<T> = T | (() => T | Promise<T>);

export async function resolveOptions<T>(source: OptionsSource<T>): Promise<T> {
  return typeof source === 'function' ? (source as () => T | Promise<T>)() : source;
}

type SocketOptions = Parameters<typeof connectSocket>[2];

/**
 * The running server as tests read it: the fields of TestServer (its `url`, the `server` itself,
 * `config`, `seeded`, …), each read when used, so from the suite's first `beforeAll` on.
 */
export interface ServerContext extends ServerView {
  /** A socket.io client on this server, disconnected after the suite's last test. */
  socket(client?: ApiClient, options?: SocketOptions): Promise<TestSocket>;
}

/** A context whose fields read the server `current()` returns (which throws until it runs). */
export function serverContext(current: () => TestServer, sockets: TestSocket[]): ServerContext {
  return {
    get url() {
      return current().url;
    },
    get server() {
      return current().server;
    },
    get config() {
      return current().config;
    },
    get seeded() {
      return current().seeded;
    },
    get databaseUrl() {
      return current().databaseUrl;
    },
    get mediaDir() {
      return current().mediaDir;
    },
    async socket(client, options) {
      const socket = await connectSocket(current().url, client, options);
      sockets.push(socket);
      return socket;
    },
  };
}

/**
 * One server (tests/support/server.ts) for the calling suite: a test file calls this once at its
 * top, a `describe` inside its body. The server starts before the suite's first test (and before
 * the `beforeAll` hooks registered after this call); after the last test the sockets opened through
 * the context are closed and the server stopped (hooks registered later run their `afterAll` first).
 */
export function useTestServer(options: OptionsSource<StartOptions> = {}): ServerContext {
  let server: TestServer | undefined;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startServer(await resolveOptions(options));
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await server?.stop();
  });

  return serverContext(() => {
    if (!server) throw new Error('the test server is not running (use it in hooks and tests, not at the top of the file)');
    return server;
  }, sockets);
}

/**
 * A server for one test's own settings (a limit, an origin): started, handed to `use`, and stopped
 * whatever `use` does.
 */
export async function withTestServer<T>(options: StartOptions, use: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await startServer(options);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}
