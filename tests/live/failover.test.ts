import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { createTestDatabase, REDIS_URL } from '../support/database.ts';
import { type AppProcess, startAppProcess, startTcpBalancer } from '../support/processes.ts';
import { connectSocket, nextEvent, type TestSocket, watch } from '../support/sockets.ts';

// Two instances (separate processes on one Postgres and Redis) behind a failover balancer. One is
// killed with SIGKILL while clients are connected: they must reconnect to the survivor within 3 s
// and, after re-watching and refetching, hold the server's state, including changes made while
// they were away.
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let one: AppProcess;
let two: AppProcess;
let balancer: Awaited<ReturnType<typeof startTcpBalancer>>;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, REDIS_URL, AUTO_MIGRATE: 'true', AUTO_SEED: 'false', AUTH_RATE_LIMIT_PER_IP: '100000' };
  one = await startAppProcess(env);
  two = await startAppProcess({ ...env, AUTO_MIGRATE: 'false' });
  balancer = await startTcpBalancer([one.port, two.port]);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await balancer?.close();
  await Promise.all([one?.stop(), two?.stop()]);
  await database?.drop();
});

test('killing an instance: its clients reconnect to the other within 3 s and resync', async () => {
  const author = await signUpUser(balancer.url);
  const pin = (await author.client.post<Pin>('/api/pins/', { title: 'Survivor', imageUrl: 'https://a.test/x.png' })).body;

  // Twelve signed-in clients through the balancer (round-robin spreads them over both instances).
  const clients: ApiClient[] = [];
  for (let i = 0; i < 12; i++) clients.push((await signUpUser(balancer.url, 'fo')).client);
  for (const client of clients) {
    const socket = await connectSocket(balancer.url, client, { reconnection: true });
    sockets.push(socket);
    expect(await watch(socket, { pinIds: [pin.id] })).toEqual({ ok: true });
  }
  const [beforeOne, beforeTwo] = await Promise.all([one.stats(), two.stats()]);
  expect(beforeOne.sockets).toBeGreaterThan(0);
  expect(beforeTwo.sockets).toBeGreaterThan(0);

  // Every socket re-watches as soon as it is back (what the web client does on reconnect).
  const dropped = beforeOne.sockets;
  const reconnectTimes: number[] = [];
  const rewatched: Promise<unknown>[] = [];
  let killedAt = 0;
  for (const socket of sockets) {
    socket.io.on('reconnect', () => {
      reconnectTimes.push(performance.now() - killedAt);
      rewatched.push(watch(socket, { pinIds: [pin.id] }));
    });
  }
  killedAt = performance.now();
  one.child.kill('SIGKILL');

  // Changes made while the dropped clients are away, through the surviving instance (a pooled
  // keep-alive connection through the balancer may still point at the dead one).
  const authorOnTwo = new ApiClient(two.url);
  for (const [name, value] of author.client.cookies) authorOnTwo.cookies.set(name, value);
  const comment = (await authorOnTwo.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'while you were away' })).body;
  expect((await authorOnTwo.post('/api/favorites/', { pin_id: pin.id })).status).toBe(201);

  const deadline = performance.now() + 5000;
  while ((reconnectTimes.length < dropped || !sockets.every((s) => s.connected)) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await Promise.all(rewatched);
  const sorted = [...reconnectTimes].sort((a, b) => a - b);
  console.log(
    `failover: ${sorted.length}/${dropped} dropped sockets reconnected; p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms`,
  );
  expect(sorted).toHaveLength(dropped);
  expect(sorted.at(-1)).toBeLessThan(3000);
  expect(sockets.every((socket) => socket.connected)).toBe(true);

  // Resync: what a client refetches after reconnecting equals the server's state.
  for (const client of clients) {
    const onTwo = new ApiClient(two.url);
    for (const [name, value] of client.cookies) onTwo.cookies.set(name, value);
    expect((await onTwo.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(1);
    const comments = await onTwo.get<CommentList>(`/api/comments/pins/${pin.id}/comments`);
    expect(comments.body.comments.map((c) => c.id)).toEqual([comment.id]);
  }

  // Events after the failover reach every socket.
  const commenter = new ApiClient(two.url);
  for (const [name, value] of (clients[0] as ApiClient).cookies) commenter.cookies.set(name, value);
  const later = (await commenter.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'after failover' })).body;
  await Promise.all(sockets.map((socket) => nextEvent(socket, 'comment:created', (p) => p.comment.id === later.id)));
});
