import { Redis } from 'ioredis';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { REDIS_URL } from '../support/database.ts';
import { BOUNDS } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { startServer } from '../support/server.ts';
import { connectSocket, eventsNamed, nextEvent, type TestSocket, watch } from '../support/sockets.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Real socket.io-clients against a real server on Postgres + Redis (sessions, adapter).
const sockets: TestSocket[] = [];
const open = async (client?: ApiClient, options?: { origin?: string }) => {
  const socket = await connectSocket(server.url, client, options);
  sockets.push(socket);
  return socket;
};

const server = useTestServer({ db: 'postgres', redis: true, env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

describe('feed room', () => {
  test('every socket, anonymous included, gets pin:created / updated / deleted with REST shapes', async () => {
    const anon = await open();
    const { client } = await signUpUser(server.url);
    const pin = await newPin(client, 'Fresh');
    expect((await nextEvent(anon, 'pin:created', (p) => p.pin.id === pin.id)).pin).toEqual(pin);
    const updated = (await client.put<Pin>(`/api/pins/${pin.id}`, { title: 'Fresher', description: 'd' })).body;
    expect((await nextEvent(anon, 'pin:updated', (p) => p.pin.id === pin.id)).pin).toEqual(updated);
    await client.delete(`/api/pins/${pin.id}`);
    expect(await nextEvent(anon, 'pin:deleted', (p) => p.pinId === pin.id)).toEqual({ pinId: pin.id, seq: expect.any(Number) });
  });
});

describe('pin rooms', () => {
  test('a watched pin gets likes and comment events; an unwatched pin does not', async () => {
    const author = await signUpUser(server.url);
    const fan = await signUpUser(server.url);
    const watched = await newPin(author.client, 'Watched');
    const unwatched = await newPin(author.client, 'Unwatched');
    const viewer = await open();
    expect(await watch(viewer, { pinIds: [watched.id] })).toEqual({ ok: true });

    // Events on the unwatched pin first, then on the watched one as the positive control.
    await fan.client.post('/api/favorites/', { pin_id: unwatched.id });
    await fan.client.post(`/api/comments/pins/${unwatched.id}/comments`, { text: 'not for you' });
    const favorite = (await fan.client.post<Favorite>('/api/favorites/', { pin_id: watched.id })).body;
    expect(await nextEvent(viewer, 'pin:likes', (p) => p.pinId === watched.id)).toEqual({ pinId: watched.id, likesCount: 1, version: 1, seq: expect.any(Number) });
    const comment = (await fan.client.post<Comment>(`/api/comments/pins/${watched.id}/comments`, { text: 'hello' })).body;
    expect((await nextEvent(viewer, 'comment:created', (p) => p.comment.id === comment.id)).comment).toEqual(comment);
    expect(eventsNamed(viewer, 'pin:likes')).toEqual([{ pinId: watched.id, likesCount: 1, version: 1, seq: expect.any(Number) }]);
    expect(eventsNamed(viewer, 'comment:created')).toEqual([{ comment, seq: expect.any(Number) }]);

    const edited = (await fan.client.put<Comment>(`/api/comments/${comment.id}`, { text: 'hello again' })).body;
    expect((await nextEvent(viewer, 'comment:updated', (p) => p.comment.id === comment.id)).comment).toEqual(edited);
    await fan.client.delete(`/api/comments/${comment.id}`);
    expect(await nextEvent(viewer, 'comment:deleted')).toEqual({ commentId: comment.id, pinId: watched.id, seq: expect.any(Number) });
    await fan.client.delete(`/api/favorites/${favorite.id}`);
    expect(await nextEvent(viewer, 'pin:likes', (p) => p.likesCount === 0)).toEqual({ pinId: watched.id, likesCount: 0, version: 2, seq: expect.any(Number) });

    // After unwatching, nothing more arrives for that pin (checked after a control on the feed).
    expect(await watch(viewer, { pinIds: [watched.id] }, 'pins:unwatch')).toEqual({ ok: true });
    await author.client.post('/api/favorites/', { pin_id: watched.id });
    const control = await newPin(author.client, 'control');
    await nextEvent(viewer, 'pin:created', (p) => p.pin.id === control.id);
    expect(eventsNamed(viewer, 'pin:likes')).toHaveLength(2);
  });

  test('pin:likes versions follow commit order: under concurrent favorites the highest version carries the final count', async () => {
    const author = await signUpUser(server.url);
    const pin = await newPin(author.client, 'Popular');
    const viewer = await open();
    expect(await watch(viewer, { pinIds: [pin.id] })).toEqual({ ok: true });
    const fans = await Promise.all(Array.from({ length: 8 }, () => signUpUser(server.url)));

    type Likes = { pinId: number; likesCount: number; version: number };
    const likes = () => eventsNamed(viewer, 'pin:likes') as Likes[];
    const latest = () => likes().reduce((a, b) => (b.version > a.version ? b : a));
    const favorites = await Promise.all(fans.map(({ client }) => client.post<Favorite>('/api/favorites/', { pin_id: pin.id })));
    expect(favorites.map((r) => r.status)).toEqual(fans.map(() => 201));
    await vi.waitFor(() => expect(eventsNamed(viewer, 'pin:likes')).toHaveLength(8));
    expect(new Set(likes().map((e) => e.version)).size).toBe(8);
    expect(latest()).toEqual({ pinId: pin.id, likesCount: 8, version: 8, seq: expect.any(Number) });

    await Promise.all(fans.slice(0, 5).map(({ client }, i) => client.delete(`/api/favorites/${favorites[i]?.body.id}`)));
    await vi.waitFor(() => expect(eventsNamed(viewer, 'pin:likes')).toHaveLength(13));
    expect(latest()).toEqual({ pinId: pin.id, likesCount: 3, version: 13, seq: expect.any(Number) });
    expect((await author.client.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(3);
  });
});

describe('user rooms', () => {
  test("a user's sockets (all tabs) get favorites and boards; other users and anonymous never do", async () => {
    const alice = await signUpUser(server.url);
    const bob = await signUpUser(server.url);
    const aliceTab1 = await open(alice.client);
    const aliceTab2 = await open(alice.client);
    const bobSocket = await open(bob.client);
    const anon = await open();
    const pin = await newPin(bob.client, 'Bob pin');

    const favorite = (await alice.client.post<Favorite>('/api/favorites/', { pin_id: pin.id })).body;
    for (const tab of [aliceTab1, aliceTab2]) {
      expect(await nextEvent(tab, 'favorite:added')).toEqual({ favorite, seq: expect.any(Number) });
    }
    const board = (await alice.client.post<Board>('/api/boards/', { name: 'Live board' })).body;
    expect(await nextEvent(aliceTab2, 'board:created')).toEqual({ board, seq: expect.any(Number) });
    await alice.client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
    expect(await nextEvent(aliceTab1, 'board:pin-added')).toEqual({
      boardId: board.id,
      pin: { id: pin.id, title: pin.title, image_url: pin.image_url, image: null, visibility: 'public' },
      pinCount: 1,
      seq: expect.any(Number),
    });
    const renamed = (await alice.client.patch<Board>(`/api/boards/${board.id}`, { name: 'Renamed' })).body;
    expect(await nextEvent(aliceTab1, 'board:updated')).toEqual({ board: renamed, seq: expect.any(Number) });
    await alice.client.delete(`/api/boards/${board.id}/pins/${pin.id}`);
    expect(await nextEvent(aliceTab2, 'board:pin-removed')).toEqual({ boardId: board.id, pinId: pin.id, pinCount: 0, seq: expect.any(Number) });
    await alice.client.delete(`/api/favorites/${favorite.id}`);
    expect(await nextEvent(aliceTab1, 'favorite:removed')).toEqual({ favoriteId: favorite.id, pinId: pin.id, seq: expect.any(Number) });
    await alice.client.delete(`/api/boards/${board.id}`);
    expect(await nextEvent(aliceTab1, 'board:deleted')).toEqual({ boardId: board.id, seq: expect.any(Number) });

    // Positive control for Bob and the anonymous socket: their own/public events do arrive.
    const bobBoard = (await bob.client.post<Board>('/api/boards/', { name: 'Bob board' })).body;
    await nextEvent(bobSocket, 'board:created', (p) => p.board.id === bobBoard.id);
    const control = await newPin(bob.client, 'public control');
    await nextEvent(anon, 'pin:created', (p) => p.pin.id === control.id);
    const privateEvents = ['favorite:added', 'favorite:removed', 'board:created', 'board:updated', 'board:deleted', 'board:pin-added', 'board:pin-removed'];
    expect(bobSocket.received.filter((r) => privateEvents.includes(r.event))).toEqual([{ event: 'board:created', payload: { board: bobBoard, seq: expect.any(Number) } }]);
    expect(anon.received.filter((r) => privateEvents.includes(r.event))).toEqual([]);
    expect(eventsNamed(aliceTab1, 'board:created')).toEqual([{ board, seq: expect.any(Number) }]);
  });
});

describe('client messages', () => {
  test('bad pins:watch payloads get error acks and the server keeps serving', async () => {
    const socket = await open();
    const bad: unknown[] = [
      null,
      undefined,
      'abc',
      42,
      [],
      {},
      { pinIds: 'x' },
      { pinIds: [-1] },
      { pinIds: [1.5] },
      { pinIds: ['1'] },
      { pinIds: [99999999999999] },
      { pinIds: Array.from({ length: 501 }, (_, i) => i + 1) },
      { pinIds: [{ nested: true }] },
    ];
    for (const payload of bad) {
      const ack = await watch(socket, payload);
      expect(ack.ok, JSON.stringify(payload)?.slice(0, 40)).toBe(false);
      if (!ack.ok) expect(typeof ack.error).toBe('string');
    }
    // No ack function at all: ignored without a crash.
    (socket.emit as (event: string, payload: unknown) => void)('pins:watch', { pinIds: [1] });
    (socket.emit as (event: string) => void)('unknown:event');
    expect(await watch(socket, { pinIds: [1, 2, 3] })).toEqual({ ok: true });
    expect(socket.connected).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test('a flood of messages is rate limited per socket', async () => {
    const socket = await open();
    // Fewer refusals than end the socket (tests/live/socket-limits.test.ts covers that).
    const acks = await Promise.all(Array.from({ length: 35 }, () => watch(socket, { pinIds: [1] })));
    expect(acks.filter((a) => a.ok)).toHaveLength(30);
    expect(acks.find((a) => !a.ok)).toEqual({ ok: false, error: 'Too many messages. Slow down.' });
    expect(socket.connected).toBe(true);
  });
});

describe('sessions on sockets', () => {
  test("logout sends session:ended and disconnects that session's sockets only", async () => {
    const { user, password } = await signUpUser(server.url);
    const laptop = new ApiClient(server.url);
    await laptop.post('/api/auth/login', { email: user.email, password });
    const phone = new ApiClient(server.url);
    await phone.post('/api/auth/login', { email: user.email, password });
    const laptopSocket = await open(laptop);
    const phoneSocket = await open(phone);
    const disconnected = new Promise<void>((resolve) => laptopSocket.once('disconnect', () => resolve()));
    await laptop.get('/api/auth/logout');
    await nextEvent(laptopSocket, 'session:ended');
    await disconnected;
    expect(laptopSocket.connected).toBe(false);
    // The same user's other session stays live and keeps getting its events.
    expect(phoneSocket.connected).toBe(true);
    const board = (await phone.post<Board>('/api/boards/', { name: 'still here' })).body;
    await nextEvent(phoneSocket, 'board:created', (p) => p.board.id === board.id);
  });

  test('a session that expires in the store ends its sockets: at the next message, and idle ones within the check interval', async () => {
    const quick = await startServer({ db: 'postgres', redis: true, env: { SOCKET_SESSION_CHECK_SECONDS: '1' } });
    const redis = new Redis(REDIS_URL);
    try {
      const expire = async (client: ApiClient) => {
        const cookie = decodeURIComponent(client.cookies.get('pinboard.sid') ?? '');
        const sid = cookie.slice(2, cookie.lastIndexOf('.'));
        expect(await redis.del(`pinboard:sess:${sid}`)).toBe(1);
      };
      const active = (await signUpUser(quick.url)).client;
      const idle = (await signUpUser(quick.url)).client;
      const activeSocket = await connectSocket(quick.url, active);
      const idleSocket = await connectSocket(quick.url, idle);
      sockets.push(activeSocket, idleSocket);
      expect(await watch(activeSocket, { pinIds: [1] })).toEqual({ ok: true });

      await expire(active);
      const activeEnded = nextEvent(activeSocket, 'session:ended');
      expect(await watch(activeSocket, { pinIds: [1] })).toEqual({ ok: false, error: 'Your session has ended. Sign in again.' });
      await activeEnded;

      // Nothing is sent on the idle socket: only the periodic check (every second here; the
      // default is a minute) can end it.
      const bound = BOUNDS.sessionCheckMs(quick.config.socketSessionCheckMs);
      const startedAt = performance.now();
      await expire(idle);
      await nextEvent(idleSocket, 'session:ended', undefined, bound);
      console.log(`idle socket ended ${(performance.now() - startedAt).toFixed(0)} ms after its session expired (check every ${quick.config.socketSessionCheckMs} ms)`);
      await vi.waitFor(() => expect(idleSocket.connected).toBe(false));
    } finally {
      redis.disconnect();
      await quick.stop();
    }
  });

  test('a socket from another site (foreign Origin) is refused; our own origin is accepted', async () => {
    await expect(connectSocket(server.url, undefined, { origin: 'https://evil.example' })).rejects.toThrow();
    const own = await open(undefined, { origin: server.url });
    expect(own.connected).toBe(true);
  });
});
