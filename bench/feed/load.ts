import http from 'node:http';

// A small closed-loop load generator over keep-alive loopback connections: `concurrency` workers
// each send a request, wait for the whole answer, record its latency and send the next, until the
// round's count is reached. (autocannon would do this too, but is not among the dependencies.)

export interface Answer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export interface Client {
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  close(): void;
}

/** What a browser sends: the server compresses as it would for one. */
export const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/**
 * A client for one app: keeps the visitor's cookies (the anonymous id and XSRF token the first
 * answer sets), as a browser tab would, so requests do not mint a new visitor each time.
 */
export function createClient(baseUrl: string, maxSockets: number): Client {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const cookies = new Map<string, string>();
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const request = http.get({ agent, host: url.hostname, port: url.port, path, headers: { 'accept-encoding': BROWSER_ENCODINGS, ...(cookie ? { cookie } : {}), ...headers } }, (response) => {
        for (const line of response.headers['set-cookie'] ?? []) {
          const [pair] = line.split(';');
          const at = pair?.indexOf('=') ?? -1;
          if (pair && at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), headers: response.headers }));
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

export interface Measured {
  /** Milliseconds, one per request. */
  latencies: number[];
  /** Answers other than 200, and failed requests. */
  errors: number;
  /** Wall-clock seconds spent in measured rounds. */
  seconds: number;
  /** The slowest request, to explain afterwards. */
  slowest?: { path: string; ms: number };
}

export function emptyMeasured(): Measured {
  return { latencies: [], errors: 0, seconds: 0 };
}

/** Sends `count` requests from `concurrency` workers; `nextPath` picks each request's path. */
export async function round(client: Client, nextPath: () => string, count: number, concurrency: number, into: Measured): Promise<void> {
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < count) {
      issued += 1;
      const path = nextPath();
      const at = performance.now();
      try {
        const answer = await client.get(path);
        if (answer.status !== 200) into.errors += 1;
      } catch {
        into.errors += 1;
      }
      const ms = performance.now() - at;
      into.latencies.push(ms);
      if (!into.slowest || ms > into.slowest.ms) into.slowest = { path, ms };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  into.seconds += (performance.now() - started) / 1000;
}

/** Nearest-rank percentile of unsorted values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
