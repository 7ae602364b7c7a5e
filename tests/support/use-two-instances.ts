import { afterAll, beforeAll } from 'vitest';
import type { ApiClient } from './client.ts';
import { startServer, type TestServer } from './server.ts';
import { connectSocket, type TestSocket } from './sockets.ts';
import { type OptionsSource, resolveOptions } from './use-test-server.ts';

export interface TwoInstancesOptions {
  /** Extra environment for both instances (e.g. a private REDIS_URL, short presence timings). */
  env?: Record<string, string>;
}

export interface TwoInstancesContext {
  /** The first instance (it made the database), from the suite's first `beforeAll` on. */
  readonly one: TestServer;
  /** The second instance, on the first one's database and Redis. */
  readonly two: TestServer;
  /** A socket.io client on `server` (either instance), disconnected after the suite's last test. */
  socket(server: { url: string }, client?: ApiClient): Promise<TestSocket>;
}

/**
 * Two instances of the app on one Postgres database and one Redis (sessions, rate limits and the
 * Socket.IO adapter that joins them), as a scaled-out deployment runs. Like useTestServer: started
 * before the suite's first test; after its last, the sockets are closed and both instances stopped
 * (the second first).
 */
export function useTwoInstances(options: OptionsSource<TwoInstancesOptions> = {}): TwoInstancesContext {
  let one: TestServer | undefined;
  let two: TestServer | undefined;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const { env } = await resolveOptions(options);
    one = await startServer({ db: 'postgres', redis: true, env });
    two = await startServer({ db: 'postgres', redis: true, env, databaseUrl: one.databaseUrl as string });
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await two?.stop();
    await one?.stop();
  });

  const running = (instance: TestServer | undefined): TestServer => {
    if (!instance) throw new Error('the instances are not running (use them in hooks and tests, not at the top of the file)');
    return instance;
  };
  return {
    get one() {
      return running(one);
    },
    get two() {
      return running(two);
    },
    async socket(server, client) {
      const socket = await connectSocket(server.url, client);
      sockets.push(socket);
      return socket;
    },
  };
}
