import { type ChildProcess, fork } from 'node:child_process';
import { createServer, type Server, type Socket, connect } from 'node:net';

export interface InstanceStats {
  heapUsed: number;
  sockets: number;
  gc: boolean;
}

export interface AppProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Heap after a forced GC and connected sockets, asked over IPC (see backend/ipc.ts). */
  stats(): Promise<InstanceStats>;
  /** SIGTERM and wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `node backend/main.ts` as its own process (own event loop and heap), ready when listening. */
export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const child = fork('backend/main.ts', [], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    execArgv: ['--expose-gc'],
  });
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`instance exited with ${code} before it was ready`));
    child.once('exit', onExit);
    child.on('message', (message: unknown) => {
      if ((message as { type?: string }).type === 'ready') {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stats: () =>
      new Promise<InstanceStats>((resolve) => {
        const onMessage = (message: unknown) => {
          const m = message as { type?: string } & InstanceStats;
          if (m.type !== 'stats') return;
          child.off('message', onMessage);
          resolve(m);
        };
        child.on('message', onMessage);
        child.send({ type: 'stats' });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A minimal TCP balancer for tests: round-robin over the backends, and when a backend refuses the
 * connection (it is down) the next one is tried — the passive failover a real balancer does.
 */
export async function startTcpBalancer(backends: number[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.pause();
    const attempt = (tries: number) => {
      const port = backends[next++ % backends.length] as number;
      const upstream = connect(port, '127.0.0.1');
      upstream.once('connect', () => {
        open.add(upstream);
        upstream.on('close', () => open.delete(upstream));
        client.pipe(upstream).pipe(client);
        client.resume();
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
      });
      upstream.once('error', () => {
        if (tries + 1 < backends.length) attempt(tries + 1);
        else client.destroy();
      });
    };
    attempt(0);
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
