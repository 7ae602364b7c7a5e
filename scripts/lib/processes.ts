import { type ChildProcess, fork, type StdioOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import path from 'node:path';

export interface InstanceStats {
  /** Memory after a forced GC (process.memoryUsage()), in bytes. */
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  arrayBuffers: number;
  /** Committed bytes per V8 heap space (new_space, old_space, code_space, large_object_space, …). */
  heapSpaces: Record<string, number>;
  /** The embedded database's WebAssembly memory (0 with PostgreSQL). */
  wasmMemory: number;
  /** libvips: its operation cache (bytes, entries) and images queued or being processed. */
  images: { cacheBytes: number; cacheItems: number; queued: number; processing: number };
  /** engine.io connections. */
  sockets: number;
  /** Socket.IO sockets on the main namespace. */
  namespaceSockets: number;
  /** `pin:<id>` rooms in this instance's adapter, and the most any one socket holds. */
  pinRooms: number;
  maxPinRoomsPerSocket: number;
  gc: boolean;
}

export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AppProcessOptions {
  /** Listen on this port (e.g. a replacement on the port a load balancer knows); default: a free one. */
  port?: number;
  /**
   * Keep the instance's log lines (see `logs`) instead of letting the child write straight to the
   * terminal; they are printed with a `[name]` prefix unless `echo` is false.
   */
  name?: string;
  echo?: boolean;
  /**
   * Run this file instead of backend/main.ts: a benchmark's baseline server that speaks the same
   * protocol (PORT, `{type: 'ready'}` over IPC, exit on SIGTERM). `stats` is the app's only.
   */
  entry?: string;
  /** Node flags besides --expose-gc, e.g. `--cpu-prof` (the profile is written at the graceful exit of `stop`). */
  execArgv?: string[];
  /**
   * Append the instance's standard output (its log lines) to this file instead: a benchmark keeps
   * the production log level without printing, or holding in memory, a line per request.
   */
  logFile?: string;
  /** Run in this working folder (relative paths in the environment, such as ./data, resolve there). */
  cwd?: string;
}

export interface AppProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<AppExit>;
  /** The log lines written so far (only with `name`). */
  logs: string[];
  /** Memory after a forced GC, connected sockets and their pin rooms, asked over IPC (see backend/instance-stats.ts). */
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
/** `env` is added to this process's environment; a variable given as undefined is left out. */
export async function startAppProcess(env: Record<string, string | undefined>, options: AppProcessOptions = {}): Promise<AppProcess> {
  const port = options.port ?? (await freePort());
  const piped = options.name !== undefined;
  const logFd = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  // As fork's `silent` would (all piped when named, else inherited), but stdout to the log file if given.
  const stdio: StdioOptions = [piped ? 'pipe' : 'inherit', logFd ?? (piped ? 'pipe' : 'inherit'), piped ? 'pipe' : 'inherit', 'ipc'];
  let child: ChildProcess;
  try {
    child = fork(path.resolve(options.entry ?? 'backend/main.ts'), [], {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      env: Object.fromEntries(Object.entries({ ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) }).filter(([, value]) => value !== undefined)),
      execArgv: ['--expose-gc', ...(options.execArgv ?? [])],
      stdio,
    });
  } finally {
    // The child holds its own copy of the descriptor.
    if (logFd !== undefined) closeSync(logFd);
  }
  const exited = new Promise<AppExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const logs: string[] = [];
  if (options.name !== undefined) {
    const prefix = `[${options.name}] `;
    for (const [stream, print] of [
      [child.stdout, console.log],
      [child.stderr, console.error],
    ] as const) {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          logs.push(line);
          if (options.echo !== false) print(prefix + line);
        }
      });
    }
  }
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`instance exited with ${code} before it was ready${logs.length ? `:\n${logs.slice(-20).join('\n')}` : ''}`));
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
    exited,
    logs,
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
