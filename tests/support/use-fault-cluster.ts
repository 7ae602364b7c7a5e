import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ApiClient } from './client.ts';
import { type FaultCluster, type FaultClusterOptions, startFaultCluster } from './faults.ts';
import { liveSocket } from './live-socket.ts';
import type { TestSocket } from './sockets.ts';

export interface FaultTestContext {
  /** The running cluster, from the file's first `beforeAll` on. */
  readonly cluster: FaultCluster;
  /** A socket as the web client opens one (liveSocket), disconnected when the file is done. */
  socket(baseUrl: string, client?: ApiClient, reopenOnServerDisconnect?: boolean): Promise<TestSocket>;
}

/**
 * One fault cluster (tests/support/faults.ts) for the calling test file, which calls this once at
 * its top: the cluster starts before the file's first test (and before the file's own `beforeAll`
 * hooks, registered after this call), every instance's log tail is printed when a test or a hook
 * fails, and after the last test the sockets opened through the context are closed and the
 * cluster stopped.
 */
export function useFaultCluster(options: FaultClusterOptions = {}): FaultTestContext {
  let cluster: FaultCluster | undefined;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    cluster = await startFaultCluster(options);
  });
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => cluster?.printLogs());
  });
  // Vitest hands hooks their fixtures first, which it insists be destructured; the suite comes
  // second. A failed `beforeAll` (the file's scenario) shows as a failed suite: print the logs too.
  // eslint-disable-next-line no-empty-pattern
  afterAll(async ({}, suite) => {
    if (suite.result?.state === 'fail') cluster?.printLogs();
    for (const socket of sockets.splice(0)) socket.disconnect();
    await cluster?.close();
  });

  return {
    get cluster() {
      if (!cluster) throw new Error('the fault cluster is not running (use it in hooks and tests, not at the top of the file)');
      return cluster;
    },
    async socket(baseUrl, client, reopenOnServerDisconnect) {
      const socket = await liveSocket(baseUrl, client, reopenOnServerDisconnect);
      sockets.push(socket);
      return socket;
    },
  };
}
