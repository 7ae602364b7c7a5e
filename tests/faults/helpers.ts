import type { ServerEventName } from '../../contract/events.ts';
import { ApiClient, type ApiResponse, sameSessionOn, signUpUser } from '../support/client.ts';
import { percentile, type TimedAnswer } from '../support/faults.ts';
import type { AppProcess } from '../support/processes.ts';
import type { TestSocket } from '../support/sockets.ts';

// The fault tests take it from here with the other helpers.
export { sameSessionOn };

// Small tools the fault tests share: timed requests, clients, load loops and what to make of them.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer<T> extends TimedAnswer {
  response?: ApiResponse<T>;
}

/**
 * Runs one request and times it. No answer within `limitMs` (or a connection error) gives
 * status 0; the request itself is left to finish in the background.
 */
export async function timed<T>(request: () => Promise<ApiResponse<T>>, limitMs = 15_000): Promise<Answer<T>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Answer<T>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 0, ms: performance.now() - started, error: `no answer within ${limitMs} ms` }), limitMs);
  });
  const answer = request().then(
    (response): Answer<T> => ({ status: response.status, ms: performance.now() - started, response }),
    (error: unknown): Answer<T> => ({ status: 0, ms: performance.now() - started, error: String(error) }),
  );
  try {
    return await Promise.race([answer, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Signs up `count` users, a few at a time. */
export async function signUpMany(baseUrl: string, count: number, prefix: string, concurrency = 4) {
  const users: Array<Awaited<ReturnType<typeof signUpUser>>> = [];
  for (let i = 0; i < count; i += concurrency) {
    const batch = await Promise.all(Array.from({ length: Math.min(concurrency, count - i) }, () => signUpUser(baseUrl, prefix)));
    users.push(...batch);
  }
  return users;
}

const USER_EVENTS = new Set<ServerEventName>(['favorite:added', 'favorite:removed', 'board:created', 'board:updated', 'board:deleted', 'board:pin-added', 'board:pin-removed', 'session:ended']);

/**
 * The `user:` room events a socket received that are not its user's: board events for boards the
 * user does not own, favorite events when the user made none (`ownFavorites` false).
 */
export function foreignUserEvents(socket: TestSocket, userId: number, ownBoardIds: Set<number>, ownFavorites = false): Array<{ event: string; payload: unknown }> {
  return socket.received.filter(({ event, payload }) => {
    if (!USER_EVENTS.has(event as ServerEventName)) return false;
    const p = payload as { board?: { id: number; user_id: number }; boardId?: number };
    if (event === 'board:created' || event === 'board:updated') return p.board?.user_id !== userId;
    if (event.startsWith('board:')) return p.boardId === undefined || !ownBoardIds.has(p.boardId);
    if (event.startsWith('favorite:')) return !ownFavorites;
    return false; // session:ended goes to the session's own sockets; checked by the logout tests
  });
}

/** The instances that have exited, each with its exit and first plain (non-JSON) log lines: a crash's message. */
export function crashedInstances(apps: AppProcess[]): string[] {
  return apps
    .filter((app) => app.child.exitCode !== null || app.child.signalCode !== null)
    .map(
      (app) =>
        `instance on port ${app.port} exited (${app.child.exitCode ?? app.child.signalCode}): ${app.logs
          .filter((line) => !line.startsWith('{'))
          .slice(0, 5)
          .join(' | ')}`,
    );
}

/** Maps with at most `limit` calls in flight. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Repeats `step` while `go()` holds. */
export async function repeatWhile(go: () => boolean, step: () => Promise<void>): Promise<void> {
  while (go()) await step();
}

export interface LoadLoop {
  /** Resolves once `count` rounds have completed (rejects if the loop ended before). */
  reached(count: number): Promise<void>;
  /** Lets the loop complete `more` rounds after this call (one may be in flight), then stop; resolves when it has. */
  finish(more: number): Promise<void>;
}

/**
 * Repeats `step` until told to finish, counting rounds: a scenario acts after so many rounds
 * rather than after so many milliseconds, so a slow machine does the same work, only slower.
 */
export function loadLoop(step: () => Promise<void>): LoadLoop {
  let rounds = 0;
  let until = Number.POSITIVE_INFINITY;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const done = repeatWhile(
    () => rounds < until,
    async () => {
      await step();
      rounds += 1;
      for (const waiter of waiting.filter((w) => rounds >= w.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
  );
  return {
    reached(count) {
      if (rounds >= count) return Promise.resolve();
      const { promise, resolve } = Promise.withResolvers<void>();
      waiting.push({ count, resolve });
      const ended = done.then(() => {
        throw new Error(`the loop ended after ${rounds} of ${count} rounds`);
      });
      return Promise.race([promise, ended]);
    },
    finish(more) {
      until = rounds + more;
      return done;
    },
  };
}

export function summary(values: number[]): string {
  if (values.length === 0) return 'n=0';
  const at = (p: number) => percentile(values, p).toFixed(0);
  return `n=${values.length} p50 ${at(50)} ms, p95 ${at(95)} ms, max ${at(100)} ms`;
}

/** The request kinds of `mixedLoad`: through nginx, and straight to each instance ("direct"). */
export const LOAD_KINDS = ['create pin', 'list pins', 'who am i', 'sign up', 'readyz', 'create pin (direct)', 'list pins (direct)'] as const;
export type LoadKind = (typeof LOAD_KINDS)[number];

export interface LoadRequest {
  kind: LoadKind;
  /** What `phase()` said when the request was sent. */
  phase: string;
  answer: Answer<unknown>;
  /** Pin creates: the title written, to read it back. */
  title?: string;
  /** Sign-ups: the client that holds the new session, if there is one. */
  client?: ApiClient;
}

/**
 * Every kind of request a few users send, while `running()` holds: pin creates by `writers`
 * through nginx, anonymous reads and /readyz, "who am I" and sign-ups, and creates and reads
 * straight to each instance with `direct`'s session (nginx may answer for instances it has marked
 * failed; the direct requests show the app's own answers). Each answer is recorded with its phase.
 */
export function mixedLoad(options: {
  url: string;
  apps: Array<{ url: string }>;
  writers: ApiClient[];
  reader: ApiClient;
  direct: ApiClient;
  prefix: string;
  running: () => boolean;
  phase: () => string;
}): { sent: LoadRequest[]; done: Promise<void> } {
  const { url, prefix, running, phase } = options;
  const sent: LoadRequest[] = [];
  const anonymous = new ApiClient(url);
  let n = 0;
  const createPin = (client: ApiClient, kind: LoadKind) => async () => {
    const at = phase();
    const title = `${prefix}-${++n}`;
    sent.push({ kind, phase: at, title, answer: await timed(() => client.post('/api/pins/', { title, imageUrl: 'https://a.test/o.png' })) });
  };
  const record = async (kind: LoadKind, request: () => Promise<ApiResponse<unknown>>, client?: ApiClient) => {
    const at = phase();
    sent.push({ kind, phase: at, answer: await timed(request), ...(client ? { client } : {}) });
  };
  const loops = [
    ...options.writers.map((client) =>
      repeatWhile(running, async () => {
        await createPin(client, 'create pin')();
        await sleep(30);
      }),
    ),
    repeatWhile(running, async () => {
      await record('list pins', () => anonymous.get('/api/pins/'));
      await record('readyz', () => anonymous.get('/readyz'));
      await sleep(50);
    }),
    repeatWhile(running, async () => {
      await record('who am i', () => options.reader.get('/api/auth/'));
      const fresh = new ApiClient(url);
      const tag = `${prefix}${process.pid}x${++n}`;
      const body = { email: `${tag}@example.test`, username: tag, password: 'correct horse battery' };
      await record('sign up', () => fresh.post('/api/auth/signup', body), fresh);
      await sleep(50);
    }),
    ...options.apps.map((app) => {
      const client = sameSessionOn(app.url, options.direct);
      const anonymousThere = new ApiClient(app.url);
      return repeatWhile(running, async () => {
        await createPin(client, 'create pin (direct)')();
        await record('list pins (direct)', () => anonymousThere.get('/api/pins/'));
        await sleep(50);
      });
    }),
  ];
  return { sent, done: Promise.all(loops).then(() => undefined) };
}
