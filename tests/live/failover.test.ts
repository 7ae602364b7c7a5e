import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { createTestDatabase, REDIS_URL } from '../support/database.ts';
import { BOUNDS, formatMs, SETTINGS, timeUntil } from '../support/eventually.ts';
import { type AppProcess, startAppProcess, startTcpBalancer } from '../support/processes.ts';
import { connectSocket, nextEvent, type TestSocket, watch } from '../support/sockets.ts';

// Two instances (separate processes on one Postgres and Redis) behind a failover balancer. One is
// killed with SIGKILL while clients are connected: they must reconnect to the survivor and, after
// re-watching and refetching, hold the server's state, including changes made while they were
// away. The scenario runs once; each test checks one promise.
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let one: AppProcess;
let two: AppProcess;
let balancer: Awaited<ReturnType<typeof startTcpBalancer>>;
const sockets: TestSocket[] = [];
let scene: Awaited<ReturnType<typeof killOneInstance>>;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    SOCKET_CHANNEL: `pinboard-test:${new URL(database.url).pathname.slice(1)}`,
    AUTO_MIGRATE: 'true',
    AUTO_SEED: 'false',
    AUTH_RATE_LIMIT_PER_IP: '100000',
  };
  one = await startAppProcess(env);
  two = await startAppProcess({ ...env, AUTO_MIGRATE: 'false' });
  balancer = await startTcpBalancer([one.port, two.port]);
});
beforeAll(async () => {
  scene = await killOneInstance();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await balancer?.close();
  await Promise.all([one?.stop(), two?.stop()]);
  await database?.drop();
});

/** The same session (cookies) straight on the surviving instance. */
function onSurvivor(client: ApiClient): ApiClient {
  const copy = new ApiClient(two.url);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

/**
 * Twelve signed-in clients through the balancer (round-robin spreads them over both instances)
 * watch one pin. The first instance is killed; the pin gets a comment and a like meanwhile; the
 * dropped sockets come back and re-watch, as the web client does — or the bound passes.
 */
async function killOneInstance() {
  const author = await signUpUser(balancer.url);
  const pin = (await author.client.post<Pin>('/api/pins/', { title: 'Survivor', imageUrl: 'https://a.test/x.png' })).body;
  const clients: ApiClient[] = [];
  for (let i = 0; i < 12; i++) clients.push((await signUpUser(balancer.url, 'fo')).client);
  for (const client of clients) {
    // The web client's reconnection settings, which the bound derives from.
    const socket = await connectSocket(balancer.url, client, { reconnection: true, ...SETTINGS.socket });
    sockets.push(socket);
    expect(await watch(socket, { pinIds: [pin.id] })).toEqual({ ok: true });
  }
  const [beforeOne, beforeTwo] = await Promise.all([one.stats(), two.stats()]);
  expect(beforeOne.sockets, 'sockets on the instance to be killed').toBeGreaterThan(0);
  expect(beforeTwo.sockets, 'sockets on the survivor').toBeGreaterThan(0);

  const dropped = beforeOne.sockets;
  const reconnectMs: number[] = [];
  const rewatched: Array<Promise<unknown>> = [];
  let killedAt = 0;
  for (const socket of sockets) {
    socket.io.on('reconnect', () => {
      reconnectMs.push(performance.now() - killedAt);
      rewatched.push(watch(socket, { pinIds: [pin.id] }));
    });
  }
  killedAt = performance.now();
  one.child.kill('SIGKILL');
  // Waited for from the kill on, while the changes below are made.
  const allBack = timeUntil(BOUNDS.socketReconnectMs, () => reconnectMs.length >= dropped && sockets.every((s) => s.connected), killedAt);

  // Changes made while the dropped clients are away, through the surviving instance (a pooled
  // keep-alive connection through the balancer may still point at the dead one).
  const authorOnTwo = onSurvivor(author.client);
  const comment = await authorOnTwo.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'while you were away' });
  const favorite = await authorOnTwo.post('/api/favorites/', { pin_id: pin.id });
  expect(comment.status).toBe(201);
  expect(favorite.status).toBe(201);

  const allBackMs = await allBack;
  return { pin, clients, comment: comment.body, dropped, reconnectMs, rewatched, allBackMs };
}

test('every socket of the killed instance reconnects to the survivor and re-watches', async () => {
  const { dropped, reconnectMs, rewatched, allBackMs } = scene;
  const sorted = [...reconnectMs].sort((a, b) => a - b);
  const times = sorted.length ? `p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms` : 'none';
  console.log(`failover: ${sorted.length}/${dropped} dropped sockets reconnected (${times}); all back ${formatMs(allBackMs, BOUNDS.socketReconnectMs)} after the kill`);
  expect(sorted).toHaveLength(dropped);
  expect(sockets.filter((socket) => !socket.connected)).toHaveLength(0);
  expect(await Promise.all(rewatched)).toEqual(rewatched.map(() => ({ ok: true })));
});

// Runs before the next test, which adds a comment to the pin.
test("what each client refetches after reconnecting equals the server's state, changes made meanwhile included", async () => {
  const { clients, pin, comment } = scene;
  for (const client of clients) {
    const survivor = onSurvivor(client);
    expect((await survivor.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(1);
    const comments = await survivor.get<CommentList>(`/api/comments/pins/${pin.id}/comments`);
    expect(comments.body.comments.map((c) => c.id)).toEqual([comment.id]);
  }
});

test('events after the failover reach every socket', async () => {
  const { clients, pin } = scene;
  const later = (await onSurvivor(clients[0] as ApiClient).post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'after failover' })).body;
  await Promise.all(sockets.map((socket) => nextEvent(socket, 'comment:created', (p) => p.comment.id === later.id, BOUNDS.eventMs)));
});
