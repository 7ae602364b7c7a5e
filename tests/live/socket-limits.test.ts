import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { LIMITS } from '../../contract/limits.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { type ServerView, startServer } from '../support/server.ts';
import { connectSocket, eventsNamed, nextEvent, type TestSocket, watch } from '../support/sockets.ts';
import { useTestServer } from '../support/use-test-server.ts';

// What one client may hold of an instance through sockets: pin rooms per socket, sockets per
// address and per session, messages per window. Real servers, real socket.io-clients. The server
// trusts the loopback proxy (TRUST_PROXY=loopback), so each test speaks from its own addresses
// through X-Forwarded-For and no test's sockets count against another's.
const PER_ADDRESS = 50;
const PER_SESSION = 20;
const CAP = LIMITS.watchedPinsPerSocket;

/** Why the server refused handshakes, in order (engine.io's connection_error context). */
const refusals: string[] = [];
const sockets: TestSocket[] = [];
let nextAddress = 1;
const newAddress = () => `203.0.113.${nextAddress++}`;

const open = async (options: { address?: string; client?: ApiClient; base?: string } = {}) => {
  const socket = await connectSocket(options.base ?? server.url, options.client, {
    headers: { 'x-forwarded-for': options.address ?? newAddress() },
  });
  sockets.push(socket);
  return socket;
};

/** Opens `count` sockets at once; answers how many connected (kept open) and how many were refused. */
const openMany = async (count: number, options: (i: number) => Parameters<typeof open>[0]) => {
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => open(options(i))));
  return {
    connected: results.filter((r) => r.status === 'fulfilled').length,
    refused: results.filter((r) => r.status === 'rejected').length,
  };
};

/** The handshake is refused, and the server says why. */
const refusedBecause = async (attempt: Promise<TestSocket>): Promise<string | undefined> => {
  const before = refusals.length;
  await expect(attempt).rejects.toThrow('websocket error');
  await vi.waitFor(() => expect(refusals.length).toBeGreaterThan(before));
  return refusals.at(-1);
};

const serverSocket = (socket: TestSocket, on: ServerView = server) => on.server.io.of('/').sockets.get(socket.id ?? '');
const pinRoomsOf = (socket: TestSocket) => [...(serverSocket(socket)?.rooms ?? [])].filter((room) => room.startsWith('pin:'));
const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

const closeAll = () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
};

const listenForRefusals = (on: ServerView) => on.server.io.engine.on('connection_error', (error: { context?: { message?: string } }) => refusals.push(error.context?.message ?? ''));

const server = useTestServer({ db: 'postgres', redis: true, env: { TRUST_PROXY: 'loopback', AUTH_RATE_LIMIT_PER_IP: '100000' } });
beforeAll(async () => {
  listenForRefusals(server);
});
afterEach(closeAll);

describe('pins watched per socket', () => {
  test(`a socket holds at most ${CAP} pin rooms: a watch past the cap is refused whole and joins nothing`, async () => {
    const author = await signUpUser(server.url);
    const pin = (await author.client.post<Pin>('/api/pins/', { title: 'Beyond the cap', imageUrl: 'https://a.test/x.png' })).body;
    const viewer = await open();
    const far = 1_000_000; // ids no real pin here has
    expect(await watch(viewer, { pinIds: ids(far, LIMITS.watchIds) })).toEqual({ ok: true });
    expect(await watch(viewer, { pinIds: ids(far + LIMITS.watchIds, CAP - LIMITS.watchIds) })).toEqual({ ok: true });
    expect(pinRoomsOf(viewer)).toHaveLength(CAP);
    // Pins already held cost nothing: watching them again at the cap is fine.
    expect(await watch(viewer, { pinIds: ids(far, 10) })).toEqual({ ok: true });

    const refused = { ok: false, error: `A connection can watch at most ${CAP} pins. Unwatch some first.` };
    expect(await watch(viewer, { pinIds: [pin.id] })).toEqual(refused);
    // All or nothing: held ids plus one new one join nothing either.
    expect(await watch(viewer, { pinIds: [far, far + 1, pin.id] })).toEqual(refused);
    expect(pinRoomsOf(viewer)).toHaveLength(CAP);
    expect(pinRoomsOf(viewer)).not.toContain(`pin:${pin.id}`);

    // What the user would see: a like on the refused pin does not reach the socket (checked after
    // a control event on the feed that was sent later).
    const fan = await signUpUser(server.url);
    await fan.client.post('/api/favorites/', { pin_id: pin.id });
    const control = (await author.client.post<Pin>('/api/pins/', { title: 'control', imageUrl: 'https://a.test/y.png' })).body;
    await nextEvent(viewer, 'pin:created', (p) => p.pin.id === control.id);
    expect(eventsNamed(viewer, 'pin:likes')).toEqual([]);

    // Unwatching makes room.
    expect(await watch(viewer, { pinIds: [far] }, 'pins:unwatch')).toEqual({ ok: true });
    expect(await watch(viewer, { pinIds: [pin.id] })).toEqual({ ok: true });
    await author.client.post('/api/favorites/', { pin_id: pin.id });
    expect(await nextEvent(viewer, 'pin:likes', (p) => p.pinId === pin.id)).toEqual({ pinId: pin.id, likesCount: 2, version: 2, seq: expect.any(Number) });
    expect(pinRoomsOf(viewer)).toHaveLength(CAP);
  });

  test('watches sent together cannot pass the cap together', async () => {
    const socket = await open();
    const acks = await Promise.all([0, 1, 2, 3].map((i) => watch(socket, { pinIds: ids(1 + i * LIMITS.watchIds, LIMITS.watchIds) })));
    expect(acks.filter((ack) => ack.ok)).toHaveLength(CAP / LIMITS.watchIds);
    expect(pinRoomsOf(socket)).toHaveLength(CAP);
  });

  test('ids that are not positive whole numbers within range are refused and join nothing', async () => {
    const socket = await open();
    const bad: unknown[] = [
      { pinIds: [0] },
      { pinIds: [-1] },
      { pinIds: [LIMITS.maxId + 1] },
      { pinIds: [1e21] },
      { pinIds: [1.5] },
      { pinIds: ['1'] },
      { pinIds: [null] },
      { pinIds: [true] },
      { pinIds: [[1]] },
      { pinIds: [1, 2, 'x'] },
      { pinIds: ids(1, LIMITS.watchIds + 1) },
      { pinIds: 1 },
      { ids: [1] },
    ];
    for (const payload of bad) {
      const ack = await watch(socket, payload);
      expect(ack.ok, JSON.stringify(payload).slice(0, 60)).toBe(false);
    }
    expect(pinRoomsOf(socket)).toEqual([]);
    // The edges that are allowed.
    expect(await watch(socket, { pinIds: [1, LIMITS.maxId] })).toEqual({ ok: true });
    expect(pinRoomsOf(socket).sort()).toEqual([`pin:${LIMITS.maxId}`, 'pin:1'].sort());
  });
});

describe('sockets per address and per session', () => {
  test(`at most ${PER_ADDRESS} sockets per client address; the count frees up as sockets close`, async () => {
    const crowded = newAddress();
    expect(await openMany(PER_ADDRESS, () => ({ address: crowded }))).toEqual({ connected: PER_ADDRESS, refused: 0 });
    expect(await refusedBecause(open({ address: crowded }))).toBe('Too many connections from your address.');
    // Another address behind the same proxy is not affected.
    expect((await open()).connected).toBe(true);

    // One closes: one more may open (eventually: the count is given back when its TCP connection closes).
    (sockets[0] as TestSocket).disconnect();
    await vi.waitFor(async () => expect((await open({ address: crowded })).connected).toBe(true), { timeout: 10_000, interval: 200 });
    expect(await refusedBecause(open({ address: crowded }))).toBe('Too many connections from your address.');

    // All close: the whole allowance is back, no more.
    closeAll();
    let reopened = 0;
    await vi.waitFor(
      async () => {
        for (; reopened < PER_ADDRESS; reopened++) await open({ address: crowded });
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(await refusedBecause(open({ address: crowded }))).toBe('Too many connections from your address.');
  });

  test('a server that does not trust its peer as a proxy ignores X-Forwarded-For: every socket counts against the peer address', async () => {
    const direct = await startServer({ db: 'postgres' });
    listenForRefusals(direct);
    try {
      // Each claims another address; all are the same peer.
      expect(await openMany(PER_ADDRESS, () => ({ base: direct.url }))).toEqual({ connected: PER_ADDRESS, refused: 0 });
      expect(await refusedBecause(open({ base: direct.url }))).toBe('Too many connections from your address.');
    } finally {
      closeAll();
      await direct.stop();
    }
  });

  test(`at most ${PER_SESSION} sockets per signed-in session; the user's other sessions and anonymous sockets are not affected`, async () => {
    const { user, password, client } = await signUpUser(server.url);
    // Every socket from its own address, so only the session cap can refuse.
    expect(await openMany(PER_SESSION, () => ({ client }))).toEqual({ connected: PER_SESSION, refused: 0 });
    expect(await refusedBecause(open({ client }))).toBe('Too many connections for this session. Close some tabs.');

    const otherBrowser = new ApiClient(server.url);
    expect((await otherBrowser.post('/api/auth/login', { email: user.email, password })).status).toBe(200);
    const other = await open({ client: otherBrowser });
    expect(other.connected).toBe(true);
    expect((await open()).connected).toBe(true);

    // One tab closes: one more may open.
    (sockets[0] as TestSocket).disconnect();
    await vi.waitFor(async () => expect((await open({ client })).connected).toBe(true), { timeout: 10_000, interval: 200 });
    expect(await refusedBecause(open({ client }))).toBe('Too many connections for this session. Close some tabs.');
  });
});

describe('message budget', () => {
  test('a socket that keeps sending past its budget is disconnected, after its answers', async () => {
    const socket = await open();
    const id = socket.id ?? '';
    const inBudget = await Promise.all(Array.from({ length: 30 }, (_, i) => watch(socket, { pinIds: [i + 1] })));
    expect(inBudget.every((ack) => ack.ok)).toBe(true);
    const answers: unknown[] = [];
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    for (let i = 0; i < 30; i++) void watch(socket, { pinIds: [100 + i] }).then((ack) => answers.push(ack));
    expect(await disconnected).toBe('io server disconnect');
    // 10 refused, the last of which ended the socket; the rest went unanswered.
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ ok: false, error: 'Too many messages. Slow down.' })));
    expect(server.server.io.of('/').sockets.has(id)).toBe(false);
  });

  test('events the server does not know spend the budget too', async () => {
    const socket = await open();
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    for (let i = 0; i < 60; i++) (socket.emit as (event: string, payload: unknown) => void)('nonsense', { i });
    expect(await disconnected).toBe('io server disconnect');
  });

  test('a socket within its budget stays connected', async () => {
    const socket = await open();
    const acks = await Promise.all(Array.from({ length: 30 }, (_, i) => watch(socket, { pinIds: [i + 1] })));
    expect(acks.every((ack) => ack.ok)).toBe(true);
    expect(await watch(socket, { pinIds: [99] })).toEqual({ ok: false, error: 'Too many messages. Slow down.' });
    expect(socket.connected).toBe(true);
    expect(pinRoomsOf(socket)).toHaveLength(30);
  });
});
