import { vi } from 'vitest';

// How long a pass/fail test waits for something that must happen "eventually". A test asserts
// what must happen (every socket back, state equal to the server's, nothing lost) and prints how
// long it took; how fast it is belongs to the benchmarks (bench/), not to a pass/fail check. The
// bound only decides when waiting has become pointless, so it is derived from the retry settings
// that govern the wait — the worst case they allow — times SLACK, for a loaded CI machine.

/** The margin over the configured worst case. */
const SLACK = 4;

/**
 * The retry and timeout settings the bounds derive from, as the code configures them (none of
 * them is exported there; change both places together).
 */
export const SETTINGS = Object.freeze({
  /**
   * The web client's socket (frontend/live/socket.ts): reconnection attempts start 500 ms after a
   * drop and back off up to 5 s apart (socket.io-client caps the jittered delay at the maximum).
   */
  socket: { reconnectionDelay: 500, reconnectionDelayMax: 5_000 },
  /** The app's ioredis clients (backend/redis.ts; the adapter's pub/sub clients are duplicates). */
  redis: { retryDelayMaxMs: 2_000, connectTimeoutMs: 2_000, commandTimeoutMs: 2_000 },
  /** The app's pg pool (db/connect.ts): waiting for a connection fails after this long. */
  postgres: { connectTimeoutMs: 2_000 },
});

export const BOUNDS = Object.freeze({
  /**
   * A dropped socket is connected again. Through nginx (or the test balancer) the first attempt
   * that meets the dead instance is passed on to a live one, so the worst case is one attempt at
   * the longest delay.
   */
  socketReconnectMs: SLACK * SETTINGS.socket.reconnectionDelayMax,
  /**
   * An answer while Postgres or Redis is down. With no offline queue a request fails on the first
   * dependency call that cannot be made, and the longest such call waits one connect or command
   * timeout (docs/operations.md: "within about 2 s").
   */
  answerDuringOutageMs: SLACK * Math.max(SETTINGS.postgres.connectTimeoutMs, SETTINGS.redis.commandTimeoutMs),
  /**
   * The app works again after Redis returns: its clients try again at most `retryDelayMaxMs` after
   * the last attempt, and that attempt connects within `connectTimeoutMs`.
   */
  redisRecoveryMs: SLACK * (SETTINGS.redis.retryDelayMaxMs + SETTINGS.redis.connectTimeoutMs),
  /**
   * The app writes again after Postgres returns: the pool opens a new connection per request, so
   * at worst one connection attempt made just before the return times out, and the next request
   * (itself answered within a connect timeout) succeeds.
   */
  postgresRecoveryMs: SLACK * 2 * SETTINGS.postgres.connectTimeoutMs,
  /**
   * An event reaches a connected socket. Its path (commit → relay → Redis → instance → socket)
   * waits on no timer or retry, so there is no setting to derive from: this only turns a lost event
   * into a failure instead of a hang, and is many times what the benchmarks measure.
   */
  eventMs: 20_000,
  /** An idle socket whose session is gone is ended by the periodic session check. */
  sessionCheckMs: (intervalMs: number) => SLACK * intervalMs,
});

/**
 * Polls `check` every 50 ms (an async one once its previous call has settled) until it returns
 * true — a throw counts as "not yet" — for up to `boundMs`. Resolves with the time from `since`
 * (a performance.now() value: the fault, say; default: now) to success, or with undefined when the
 * bound passed first. A scenario records outcomes this way; its tests assert on them.
 */
export async function timeUntil(boundMs: number, check: () => boolean | Promise<boolean>, since = performance.now()): Promise<number | undefined> {
  const attempt = () =>
    Promise.resolve()
      .then(check)
      .catch(() => false);
  try {
    await vi.waitUntil(attempt, { timeout: boundMs, interval: 50 });
    return performance.now() - since;
  } catch {
    return undefined;
  }
}

/** A figure for a log line: "1234 ms", or "not within 20000 ms". */
export function formatMs(ms: number | undefined, boundMs: number): string {
  return ms === undefined ? `not within ${boundMs} ms` : `${ms.toFixed(0)} ms`;
}

/**
 * Reads until `done` holds of what was read, every `intervalMs`, and answers that value; throws,
 * with the last value, once `boundMs` has passed (a generous bound, not a speed check).
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, { boundMs = 60_000, intervalMs = 100 } = {}): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > boundMs) throw new Error(`not done after ${boundMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
