import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Comment } from '../contract/comments.ts';
import type { Favorite } from '../contract/favorites.ts';
import { afterPage, type ChangesAnswer } from '../contract/changes.ts';
import type { Pin } from '../contract/pins.ts';
import { ApiClient, signUpUser } from '../scripts/lib/client.ts';
import { createTestDatabase, REDIS_URL } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { connectSocket, type TestSocket, watch } from '../scripts/lib/sockets.ts';
import { benchPresence } from './live/presence.ts';

// `npm run bench:live [-- --watchers 1000 --actions 200]`: delivery of live events at scale.
// Two app instances (separate processes, shared Postgres + Redis) with M anonymous watchers of one
// pin split between them; K favorite toggles and comment create/delete calls go through REST; every
// watcher must receive every event. Prints delivery, latency from REST response to socket receipt
// (against a one-watcher baseline measured in the same run), throughput and heap per socket.
// Then the change log (#16): a client that missed 100 and 1,000 public changes catches up with
// GET /api/changes (as many requests as it takes: 1,000 per answer), timed and weighed (gzip on
// the wire, as the server sends it to a browser, and the JSON itself). Every event above is also
// written to the log, so the delivery figures are "with the change log on".
// Then presence's Redis operations per second (./live/presence.ts; `--presence-only` skips the rest).
// A benchmark: it prints figures and never fails on timings.

const { values } = parseArgs({
  options: {
    watchers: { type: 'string', default: '1000' },
    actions: { type: 'string', default: '200' },
    // Presence: viewers, and the steady window (seconds) over which heartbeats are counted.
    'presence-viewers': { type: 'string', default: '1000' },
    'presence-window': { type: 'string', default: '30' },
    'presence-only': { type: 'boolean', default: false },
  },
});
const M = Number(values.watchers);
const K = Number(values.actions);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Runs `count` actions one after another; each must reach every watcher before the next starts. */
async function measure(watchers: TestSocket[], client: ApiClient, pin: Pin, count: number) {
  const latencies: number[] = [];
  const fromRequest: number[] = [];
  let delivered = 0;
  let favoriteId: number | undefined;
  let commentId: number | undefined;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    let pending = watchers.length;
    const receivedAt: number[] = [];
    const event = i % 2 === 0 ? 'pin:likes' : commentId === undefined ? 'comment:created' : 'comment:deleted';
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      for (const socket of watchers) {
        socket.once(event as 'pin:likes', () => {
          receivedAt.push(performance.now());
          if (--pending === 0) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
    const requestedAt = performance.now();
    if (i % 2 === 0) {
      // Favorite toggle: add, then remove on the next even step.
      if (favoriteId === undefined) favoriteId = (await client.post<Favorite>('/api/favorites/', { pin_id: pin.id })).body.id;
      else {
        await client.delete(`/api/favorites/${favoriteId}`);
        favoriteId = undefined;
      }
    } else if (commentId === undefined) {
      commentId = (await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: `bench ${i}` })).body.id;
    } else {
      await client.delete(`/api/comments/${commentId}`);
      commentId = undefined;
    }
    const respondedAt = performance.now();
    await done;
    for (const socket of watchers) socket.removeAllListeners(event as 'pin:likes');
    delivered += receivedAt.length;
    // The server emits before it answers, so an event can beat the REST response: count that as 0.
    for (const t of receivedAt) {
      latencies.push(Math.max(0, t - respondedAt));
      fromRequest.push(t - requestedAt);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  // Leave no favorite or comment behind, so the next run starts from the same state.
  if (favoriteId !== undefined) await client.delete(`/api/favorites/${favoriteId}`);
  if (commentId !== undefined) await client.delete(`/api/comments/${commentId}`);
  latencies.sort((a, b) => a - b);
  fromRequest.sort((a, b) => a - b);
  return { delivered, expected: count * watchers.length, latencies, fromRequest, seconds };
}

/** The log's newest seq: a `since` ahead of the log answers a reset that names it. */
async function logHead(baseUrl: string): Promise<number> {
  const answer = (await (await fetch(`${baseUrl}/api/changes?since=9999999999`)).json()) as ChangesAnswer;
  return answer.lastSeq;
}

/** Each writer's favorite of the pin, kept from one call to the next (a toggle must change something). */
const favoriteOf = new Map<ApiClient, number>();

/** `count` public changes (favorite toggles: each one a `pin:likes`), written by a few users at once. */
async function writeChanges(clients: ApiClient[], pin: Pin, count: number): Promise<void> {
  let left = count;
  await Promise.all(
    clients.map(async (client) => {
      while (left > 0) {
        left -= 1;
        const favoriteId = favoriteOf.get(client);
        if (favoriteId === undefined) {
          const res = await client.post<Favorite>('/api/favorites/', { pin_id: pin.id });
          if (res.status !== 201) throw new Error(`favorite → ${res.status}`);
          favoriteOf.set(client, res.body.id);
        } else {
          await client.delete(`/api/favorites/${favoriteId}`);
          favoriteOf.delete(client);
        }
      }
    }),
  );
}

/** A client back after missing what came after `since`: pulls until it has reached the head. */
async function catchUp(baseUrl: string, since: number) {
  let cursor = since;
  let requests = 0;
  let wire = 0;
  let json = 0;
  let changes = 0;
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${baseUrl}/api/changes?since=${cursor}`, { headers: { 'accept-encoding': 'gzip' } });
    const text = await res.text();
    requests += 1;
    json += Buffer.byteLength(text);
    // fetch inflates the answer: its gzip size is measured again here (the server's level, the default).
    wire += gzipSync(text).length;
    const answer = JSON.parse(text) as ChangesAnswer;
    if ('reset' in answer) throw new Error('the log answered reset');
    changes += answer.changes.length;
    const next = afterPage(answer);
    cursor = next.cursor;
    if (!next.more) break;
  }
  return { ms: performance.now() - started, requests, wire, json, changes };
}

const database = await createTestDatabase();
const env = {
  DATABASE_URL: database.url,
  REDIS_URL,
  SOCKET_CHANNEL: `pinboard-bench:${new URL(database.url).pathname.slice(1)}`,
  AUTO_MIGRATE: 'true',
  AUTO_SEED: 'false',
  AUTH_RATE_LIMIT_PER_IP: '1000000',
  API_RATE_LIMIT_PER_IP: '1000000',
  // A thousand watchers from one address: far beyond what one visitor may open.
  SOCKETS_PER_ADDRESS: '100000',
};
const one = await startAppProcess(env);
const two = await startAppProcess({ ...env, AUTO_MIGRATE: 'false' });
const sockets: TestSocket[] = [];
try {
  if (!values['presence-only']) await benchDelivery();
} finally {
  for (const socket of sockets) socket.disconnect();
  await Promise.all([one.stop(), two.stop()]);
}
try {
  await benchPresence({ databaseUrl: database.url, viewers: Number(values['presence-viewers']), windowSeconds: Number(values['presence-window']) });
} finally {
  await database.drop();
}

async function benchDelivery(): Promise<void> {
  const { client } = await signUpUser(one.url, 'bench');
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Benchmark pin', imageUrl: 'https://a.test/b.png' })).body;

  const baselineWatcher = await connectSocket(two.url);
  await watch(baselineWatcher, { pinIds: [pin.id] });
  const baseline = await measure([baselineWatcher], client, pin, Math.min(K, 50));
  baselineWatcher.disconnect();
  await new Promise((r) => setTimeout(r, 200));

  const [heapBefore1, heapBefore2] = await Promise.all([one.stats(), two.stats()]);
  for (let i = 0; i < M; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, M - i) }, (_, j) => connectSocket((i + j) % 2 === 0 ? one.url : two.url)));
    sockets.push(...batch);
  }
  await new Promise((r) => setTimeout(r, 500));
  const [heapIdle1, heapIdle2] = await Promise.all([one.stats(), two.stats()]);
  const acks = await Promise.all(sockets.map((socket) => watch(socket, { pinIds: [pin.id] })));
  const refused = acks.filter((ack) => !ack.ok).length;
  if (refused > 0) console.log(`warning: ${refused} watchers were refused pins:watch`);

  const result = await measure(sockets, client, pin, K);
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const heapPerSocket = (heapIdle1.heapUsed - heapBefore1.heapUsed + heapIdle2.heapUsed - heapBefore2.heapUsed) / (heapIdle1.sockets + heapIdle2.sockets - heapBefore1.sockets - heapBefore2.sockets);
  console.log(`watchers: ${M} (${heapIdle1.sockets} on instance 1, ${heapIdle2.sockets} on instance 2), actions: ${K} (favorite toggles + comment create/delete)`);
  console.log(`delivered/expected: ${result.delivered}/${result.expected} (${((100 * result.delivered) / result.expected).toFixed(2)} %)`);
  console.log(
    `latency REST response → socket receipt: p50 ${ms(percentile(result.latencies, 50))}, p95 ${ms(percentile(result.latencies, 95))}, p99 ${ms(percentile(result.latencies, 99))}, max ${ms(result.latencies.at(-1) ?? NaN)}`,
  );
  console.log(
    `latency REST request sent → socket receipt: p50 ${ms(percentile(result.fromRequest, 50))}, p95 ${ms(percentile(result.fromRequest, 95))}, p99 ${ms(percentile(result.fromRequest, 99))}, max ${ms(result.fromRequest.at(-1) ?? NaN)}`,
  );
  console.log(
    `baseline, 1 watcher (${baseline.expected} events), request → receipt: p50 ${ms(percentile(baseline.fromRequest, 50))}, p99 ${ms(percentile(baseline.fromRequest, 99))}; ${M} watchers vs baseline: p50 ×${(percentile(result.fromRequest, 50) / percentile(baseline.fromRequest, 50)).toFixed(1)}, p99 ×${(percentile(result.fromRequest, 99) / percentile(baseline.fromRequest, 99)).toFixed(1)}`,
  );
  console.log(`throughput: ${(result.delivered / result.seconds).toFixed(0)} events/s delivered over ${result.seconds.toFixed(1)} s (${(K / result.seconds).toFixed(1)} actions/s, sequential)`);
  console.log(`server heap per idle socket: ${(heapPerSocket / 1024).toFixed(1)} KB (after a forced GC: ${heapIdle1.gc ? 'yes' : 'no'})`);
  for (const socket of sockets.splice(0)) socket.disconnect();

  // Catch-up: an anonymous client misses `missed` public changes, then pulls them (warm: the
  // first pull of a run also warms the route, so each size is pulled three times, best and worst printed).
  const writers = await Promise.all(Array.from({ length: 8 }, () => signUpUser(one.url, 'benchw').then((u) => u.client)));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  for (const missed of [100, 1_000]) {
    const since = await logHead(one.url);
    await writeChanges(writers, pin, missed);
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await catchUp(two.url, since));
    const [best, worst] = [Math.min(...runs.map((r) => r.ms)), Math.max(...runs.map((r) => r.ms))];
    const run = runs[0] as Awaited<ReturnType<typeof catchUp>>;
    console.log(
      `catch-up after ${missed} missed changes: ${run.changes} changes in ${run.requests} request(s), ${ms(best)} (worst of 3 ${ms(worst)}), ${kb(run.wire)} on the wire (gzip), ${kb(run.json)} of JSON`,
    );
  }
}
