import autocannon from 'autocannon';

// The load: autocannon's HTTP client (raw sockets and a hand-written request buffer, so one load
// process can outrun a Node server, which Node's own http client cannot), closed loop, keep-alive.
// Each simulated visitor is one autocannon instance with one connection, so that each can hold its
// own cookies and ids (autocannon clones its options per connection and resets its per-request
// context at every loop, which leaves no place for a visitor's jar). A visitor loops over its
// steps (one GET, or a favorite then its removal) for the warm-up and the measured window; only
// answers completed inside the window count, so connection set-up, the first visit's cookies and
// the JIT's first minutes stay out of the figures.

export interface Answer {
  status: number;
  body: string;
}

/** One request of a visitor's loop. */
export interface Step {
  method: 'GET' | 'POST' | 'DELETE';
  /** The next request's path (and JSON body); undefined skips back to the first step (e.g. no id to delete). */
  next(): { path: string; body?: unknown } | undefined;
  /** Sees the answer, e.g. to keep the id the next step needs. */
  onAnswer?(answer: Answer): void;
}

export interface Visitor {
  /** The instance it talks to, e.g. http://127.0.0.1:41234. */
  url: string;
  steps: Step[];
  /** Cookies it starts with. */
  cookies?: Record<string, string>;
  /** Keep the cookies answers set and send them back, as a browser does; else send only `cookies`. */
  jar: boolean;
  headers?: Record<string, string>;
}

export interface Timing {
  warmupSeconds: number;
  seconds: number;
}

export interface Measured {
  /** Loops through every step that ended in a 2xx answer to the last step (a request, or a pair). */
  units: number;
  /** Per unit, milliseconds: the sum of its requests' latencies (one request, or both of a pair). */
  latencies: number[];
  requests: number;
  /** Answers by status code. */
  statuses: Map<number, number>;
  /** Answers that carried a Set-Cookie header. */
  setCookie: number;
  /** Socket errors and timeouts, warm-up included. */
  errors: number;
  /** Requests answered by each instance (url). */
  byUrl: Map<string, number>;
  seconds: number;
  /** CPU time of this (the load) process during the window, as a share of one core: near 1, it was the bottleneck. */
  loadCpu: number;
  /** The measured window on the monotonic clock, microseconds (the clock CPU profiles use). */
  window: { from: number; to: number };
}

/** Microseconds on the monotonic clock (CLOCK_MONOTONIC, the same as V8's profiler timestamps). */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Runs the visitors at once for warm-up + window and collects what was answered inside the window. */
export async function runVisitors(visitors: Visitor[], timing: Timing): Promise<Measured> {
  const started = monotonicMicros();
  const from = started + timing.warmupSeconds * 1e6;
  const to = from + timing.seconds * 1e6;
  const measured: Measured = {
    units: 0,
    latencies: [],
    requests: 0,
    statuses: new Map(),
    setCookie: 0,
    errors: 0,
    byUrl: new Map(),
    seconds: timing.seconds,
    loadCpu: NaN,
    window: { from, to },
  };
  const runs = visitors.map((visitor) => runVisitor(visitor, measured, timing));
  const sleepUntil = (micros: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, micros - monotonicMicros()) / 1000));
  await sleepUntil(from);
  const cpu = process.cpuUsage();
  await sleepUntil(to);
  const used = process.cpuUsage(cpu);
  measured.loadCpu = (used.user + used.system) / (to - from);
  for (const run of runs) run.instance.stop();
  const results = await Promise.all(runs.map((run) => run.done));
  for (const result of results) measured.errors += result.errors;
  return measured;
}

function runVisitor(visitor: Visitor, into: Measured, timing: Timing): { instance: autocannon.Instance; done: Promise<autocannon.Result> } {
  const cookies = new Map(Object.entries(visitor.cookies ?? {}));
  const last = visitor.steps.length - 1;
  // What the answer being completed was (onResponse runs just before the instance's 'response'
  // event, which carries the latency), and the latency of the loop so far.
  let answered: { step: number; status: number } | undefined;
  let loopLatency = 0;

  const requests: autocannon.Request[] = visitor.steps.map((step, index) => ({
    method: step.method,
    setupRequest: (request) => {
      if (index === 0) loopLatency = 0;
      const next = step.next();
      // A falsy request sends autocannon back to the first step; its type does not say so.
      if (next === undefined) return undefined as unknown as autocannon.Request;
      const headers: Record<string, string> = { ...visitor.headers };
      if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      // A write carries the anti-forgery token the XSRF-TOKEN cookie holds, as the web client does.
      const token = cookies.get('XSRF-TOKEN');
      if (step.method !== 'GET' && token !== undefined) headers['x-xsrf-token'] = token;
      if (next.body === undefined) return { ...request, path: next.path, headers };
      return { ...request, path: next.path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(next.body) };
    },
    onResponse: (status, body, _context, headers) => {
      answered = { step: index, status };
      const setCookie = setCookieLines(headers ?? {});
      if (setCookie.length > 0) {
        if (inWindow()) into.setCookie += 1;
        if (visitor.jar) keepCookies(cookies, setCookie);
      }
      step.onAnswer?.({ status, body });
    },
  }));

  const inWindow = () => {
    const now = monotonicMicros();
    return now >= into.window.from && now < into.window.to;
  };

  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: visitor.url,
        connections: 1,
        pipelining: 1,
        // Stopped by runVisitors at the end of the window; this is a backstop.
        duration: timing.warmupSeconds + timing.seconds + 60,
        timeout: 10,
        requests,
      },
      (error: unknown, result: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)),
    );
  });
  if (instance === undefined) throw new Error('autocannon did not start');
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    const answer = answered;
    answered = undefined;
    if (answer === undefined) return;
    loopLatency += responseTime;
    if (!inWindow()) return;
    into.requests += 1;
    into.statuses.set(answer.status, (into.statuses.get(answer.status) ?? 0) + 1);
    into.byUrl.set(visitor.url, (into.byUrl.get(visitor.url) ?? 0) + 1);
    if (answer.step === last && answer.status >= 200 && answer.status < 300) {
      into.units += 1;
      into.latencies.push(loopLatency);
    }
  });
  return { instance, done };
}

function setCookieLines(headers: Record<string, string | string[] | undefined>): string[] {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'set-cookie' || value === undefined) continue;
    return Array.isArray(value) ? value : [value];
  }
  return [];
}

/** As a browser would: a new value replaces the old, an empty or expired one removes it. */
function keepCookies(cookies: Map<string, string>, lines: string[]): void {
  for (const line of lines) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
    else cookies.set(name, value);
  }
}

/** Nearest-rank percentile of unsorted values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
