import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import type { User } from '../../contract/users.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { type FaultCluster, startFaultCluster } from '../support/faults.ts';
import { nextEvent, type TestSocket, watch } from '../support/sockets.ts';
import { foreignUserEvents, liveSocket, sameSessionOn, signUpMany, sleep, summary } from './helpers.ts';

// SIGKILL of one of two instances behind nginx (deploy/nginx/pinboard.conf), with signed-in
// browsers' sockets connected through it: what DESIGN §8 promises is that clients reconnect to the
// survivor, resync, and keep getting their own events (and only theirs); and that a session does
// not belong to the instance that created it.

let cluster: FaultCluster;
const sockets: TestSocket[] = [];
/** Signed up directly on the first instance, which the tests kill. */
let madeOnFirst: { client: ApiClient; user: User };

beforeAll(async () => {
  cluster = await startFaultCluster();
  madeOnFirst = await signUpUser((cluster.apps[0] as { url: string }).url, 'first');
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.close();
});

async function killFirstInstance(): Promise<void> {
  const first = cluster.apps[0];
  if (!first) throw new Error('no first instance');
  if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
  await first.exited;
}

test('SIGKILL of one instance: 40 signed-in sockets through nginx reconnect within 3 s, resync, and get only their own events', async () => {
  onTestFailed(() => cluster.printLogs());
  const url = cluster.url;
  const author = await signUpUser(url, 'author');
  const created = await author.client.post<Pin>('/api/pins/', { title: 'Through nginx', imageUrl: 'https://a.test/x.png' });
  expect(created.status).toBe(201);
  const pin = created.body;

  const users = await signUpMany(url, 40, 'kill');
  const userSockets: TestSocket[] = [];
  for (const { client } of users) {
    const socket = await liveSocket(url, client);
    sockets.push(socket);
    userSockets.push(socket);
    expect(await watch(socket, { pinIds: [pin.id] })).toEqual({ ok: true });
  }
  const [onFirst, onSecond] = await Promise.all(cluster.apps.map((app) => app.stats()));
  console.log(`sockets before the kill: ${onFirst?.sockets} on app1, ${onSecond?.sockets} on app2`);
  expect(onFirst?.sockets).toBeGreaterThan(0);
  expect(onSecond?.sockets).toBeGreaterThan(0);

  // Positive control of the private events before the fault: each user's board reaches its socket.
  const ownBoards = users.map(() => new Set<number>());
  await Promise.all(
    users.map(async ({ client }, i) => {
      const board = await client.post<Board>('/api/boards/', { name: `Before ${i}` });
      expect(board.status).toBe(201);
      ownBoards[i]?.add(board.body.id);
      await nextEvent(userSockets[i] as TestSocket, 'board:created', (p) => p.board.id === board.body.id);
    }),
  );

  // Every dropped socket re-watches as soon as it is back, as the web client does.
  const killedAt = { at: 0 };
  const dropped = new Set<number>();
  const reconnectMs = new Map<number, number>();
  const rewatched: Array<Promise<unknown>> = [];
  userSockets.forEach((socket, i) => {
    socket.on('disconnect', () => {
      if (killedAt.at) dropped.add(i);
    });
    socket.on('connect', () => {
      if (!killedAt.at || reconnectMs.has(i)) return;
      reconnectMs.set(i, performance.now() - killedAt.at);
      rewatched.push(watch(socket, { pinIds: [pin.id] }));
    });
  });
  killedAt.at = performance.now();
  await killFirstInstance();

  // Changes while the dropped sockets are away, through nginx (requests that meet the dead
  // instance are retried on the survivor: nothing was sent on a refused connection).
  const comment = await author.client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'while you were away' });
  const favorite = await author.client.post('/api/favorites/', { pin_id: pin.id });
  console.log(`writes through nginx right after the kill: comment ${comment.status}, favorite ${favorite.status}`);
  expect(comment.status).toBe(201);
  expect(favorite.status).toBe(201);

  const deadline = performance.now() + 6000;
  while ((reconnectMs.size < dropped.size || !userSockets.every((s) => s.connected)) && performance.now() < deadline) {
    await sleep(25);
  }
  const times = [...reconnectMs.values()];
  console.log(`SIGKILL: ${dropped.size} sockets dropped (${onFirst?.sockets} were on app1), ${reconnectMs.size} reconnected through nginx: ${summary(times)}`);
  expect(dropped.size).toBe(onFirst?.sockets);
  expect(reconnectMs.size).toBe(dropped.size);
  expect(Math.max(...times)).toBeLessThan(3000);
  expect(userSockets.every((socket) => socket.connected)).toBe(true);
  expect(await Promise.all(rewatched)).toEqual(rewatched.map(() => ({ ok: true })));
  expect((await cluster.apps[1]?.stats())?.sockets).toBe(40);

  // Resync: what each client refetches through nginx includes what happened while it was away.
  await Promise.all(
    users.map(async ({ client }) => {
      const refetched = await client.get<Pin>(`/api/pins/${pin.id}`);
      expect(refetched.status).toBe(200);
      expect(refetched.body.likes_count).toBe(1);
      const comments = await client.get<CommentList>(`/api/comments/pins/${pin.id}/comments`);
      expect(comments.body.comments.map((c) => c.id)).toEqual([comment.body.id]);
    }),
  );

  // An event after the failover reaches every socket.
  const later = await (users[0] as { client: ApiClient }).client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'after failover' });
  expect(later.status).toBe(201);
  await Promise.all(userSockets.map((socket) => nextEvent(socket, 'comment:created', (p) => p.comment.id === later.body.id)));

  // Private events after the failover: each user's own board reaches its socket (positive
  // control), and no socket has ever received another user's `user:` event.
  await Promise.all(
    users.map(async ({ client }, i) => {
      const board = await client.post<Board>('/api/boards/', { name: `After ${i}` });
      expect(board.status).toBe(201);
      ownBoards[i]?.add(board.body.id);
      await nextEvent(userSockets[i] as TestSocket, 'board:created', (p) => p.board.id === board.body.id);
    }),
  );
  const leaks = users.flatMap(({ user }, i) => foreignUserEvents(userSockets[i] as TestSocket, user.id, ownBoards[i] as Set<number>));
  console.log(`private events: ${users.length * 2} boards created, ${leaks.length} delivered to another user's socket`);
  expect(leaks).toEqual([]);
});

test('a session made through the instance that died keeps working through the survivor (REST and socket)', async () => {
  onTestFailed(() => cluster.printLogs());
  await killFirstInstance();
  const { client, user } = madeOnFirst;
  const viaNginx = sameSessionOn(cluster.url, client);

  const me = await viaNginx.get<{ user: User | null }>('/api/auth/');
  expect(me.status).toBe(200);
  expect(me.body.user?.id).toBe(user.id);
  // A write needs the CSRF token the dead instance issued: every instance accepts it.
  const pin = await viaNginx.post<Pin>('/api/pins/', { title: 'Made on a dead instance', imageUrl: 'https://a.test/y.png' });
  expect(pin.status).toBe(201);
  expect(pin.body.user_id).toBe(user.id);

  const socket = await liveSocket(cluster.url, viaNginx);
  sockets.push(socket);
  const board = await viaNginx.post<Board>('/api/boards/', { name: 'Still me' });
  expect(board.status).toBe(201);
  expect((await nextEvent(socket, 'board:created', (p) => p.board.id === board.body.id)).board.user_id).toBe(user.id);
  console.log('session made on the killed instance: GET /api/auth/ 200, POST /api/pins/ 201, socket got its board:created');
});
