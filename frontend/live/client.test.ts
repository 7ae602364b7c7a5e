import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../contract/index.ts';
import { alice, bob, makeBoard, makeComment, makePin, mockApi, type Handler } from '../test-support/render.tsx';
import {
  boardsByIdAtom,
  commentsByIdAtom,
  favoritesByIdAtom,
  pinsByIdAtom,
  sessionCheckedAtom,
  sessionUserAtom,
} from '../state/atoms.ts';
import { setAllBoards } from '../state/boards.ts';
import { commentsForPinAtom, setPinComments } from '../state/comments.ts';
import { setAllFavorites } from '../state/favorites.ts';
import { setAllPins, upsertPin } from '../state/pins.ts';
import { clearSession, setSessionUser } from '../state/session.ts';
import { deletedPinIdsAtom, liveStatusAtom } from './atoms.ts';
import { createLiveClient, liveClientFor, type LiveClient } from './client.ts';
import { FakeSocket } from './fakeSocket.ts';

const started: LiveClient[] = [];
afterEach(() => {
  for (const client of started.splice(0)) client.stop();
});

/** A live client on a fresh store whose sockets are fakes; `sockets` lists every one it opened. */
function setup(user: User | null = null) {
  const store = createStore();
  const sockets: FakeSocket[] = [];
  const client = createLiveClient(store, {
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    watch: { debounceMs: 10 },
    retryMs: 20,
  });
  client.start();
  started.push(client);
  const checkSession = () => (user ? setSessionUser(store, user) : clearSession(store));
  const last = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket opened');
    return socket;
  };
  return { store, client, sockets, checkSession, last };
}

const fav = (id: number, pinId: number, likes = 1) => ({ id, pin_id: pinId, title: `Pin ${pinId}`, image_url: `/seed-images/${pinId}.svg`, likes_count: likes });

describe('live client: socket lifecycle', () => {
  it('opens one socket after the session check, not before', async () => {
    const { store, sockets, checkSession, client } = setup();
    expect(liveClientFor(store)).toBe(client);
    await Promise.resolve();
    expect(sockets).toHaveLength(0);
    expect(store.get(sessionCheckedAtom)).toBe(false);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    expect(store.get(liveStatusAtom)).toBe('connecting');
    sockets[0]?.serverConnect();
    expect(store.get(liveStatusAtom)).toBe('connected');
  });

  it('opens a new socket (new cookie) when the user logs in or out, and closes the old one', async () => {
    const { store, sockets, checkSession, last } = setup();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    setSessionUser(store, alice); // login
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(sockets[0]?.closed).toBe(true);
    setSessionUser(store, alice); // same user again: nothing changes
    await Promise.resolve();
    expect(sockets).toHaveLength(2);
    clearSession(store); // logout
    await vi.waitFor(() => expect(sockets).toHaveLength(3));
    expect(sockets[1]?.closed).toBe(true);
    // Events from a closed socket are not applied.
    sockets[0]?.serverEmit('pin:created', { pin: makePin(1) });
    expect(store.get(pinsByIdAtom)).toEqual({});
  });

  it('applies events from the socket to the store', async () => {
    const { store, checkSession, last, sockets } = setup(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    last().serverEmit('pin:created', { pin: makePin(4) });
    last().serverEmit('board:created', { board: makeBoard(2) });
    expect(store.get(pinsByIdAtom)[4]?.title).toBe('Pin 4');
    expect(store.get(boardsByIdAtom)[2]?.name).toBe('Board 2');
  });

  it('a screen load replays the events that arrived during its fetch, so an older answer does not undo them', async () => {
    const { store, client, checkSession, last, sockets } = setup(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    setAllPins(store, [makePin(1), makePin(2)]);

    let answer: (pins: ReturnType<typeof makePin>[]) => void = () => {};
    const load = client.replayDuring(async () => {
      setAllPins(store, await new Promise<ReturnType<typeof makePin>[]>((resolve) => (answer = resolve)));
    });
    const renamed = makePin(1, alice, { title: 'Renamed', updated_at: new Date(Date.UTC(2026, 0, 1)).toISOString() });
    last().serverEmit('pin:created', { pin: makePin(3) });
    last().serverEmit('pin:deleted', { pinId: 2 });
    last().serverEmit('pin:updated', { pin: renamed });
    // The server's answer was taken before those changes.
    answer([makePin(1), makePin(2)]);
    await load;
    const pins = store.get(pinsByIdAtom);
    expect(Object.keys(pins).map(Number).sort()).toEqual([1, 3]);
    expect(pins[1]?.title).toBe('Renamed');

    // Once the load is over nothing is buffered for it any more.
    setAllPins(store, [makePin(1)]);
    await client.replayDuring(async () => undefined);
    expect(Object.keys(store.get(pinsByIdAtom))).toEqual(['1']);
  });

  it('session:ended signs the tab out and reconnects as anonymous', async () => {
    const { store, checkSession, last, sockets } = setup(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    setAllFavorites(store, [fav(9, 1)]);
    const first = last();
    first.serverConnect();
    first.serverEmit('session:ended', {});
    first.serverDisconnect('io server disconnect');
    expect(store.get(sessionUserAtom)).toBeNull();
    expect(store.get(favoritesByIdAtom)).toEqual({});
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(first.closed).toBe(true);
  });

  it("this tab's own logout closes the socket first, so its session:ended is not news", async () => {
    const { store, client, checkSession, last, sockets } = setup(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const first = last();
    first.serverConnect();
    client.prepareForLogout();
    expect(first.closed).toBe(true);
    first.serverEmit('session:ended', {}); // too late: the listeners are gone
    expect(store.get(sessionUserAtom)).toEqual(alice);
    expect(store.get(liveStatusAtom)).toBe('connecting');
    clearSession(store); // what the logout does once it has left the page
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
  });

  it('a socket the server closed for another reason asks for the session and reconnects with a resync', async () => {
    const api = mockApi({ 'GET /api/auth/': { body: { user: alice } }, 'GET /api/favorites/': { body: { pins: [] } } });
    const { store, checkSession, last, sockets } = setup(alice);
    checkSession();
    setAllFavorites(store, [fav(9, 1)]);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    last().serverDisconnect('io server disconnect');
    expect(store.get(liveStatusAtom)).toBe('paused');
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(api.sent('GET', '/api/auth/')).toHaveLength(1);
    last().serverConnect();
    await vi.waitFor(() => expect(api.sent('GET', '/api/favorites/')).toHaveLength(1));
    await vi.waitFor(() => expect(store.get(favoritesByIdAtom)).toEqual({}));
    expect(store.get(liveStatusAtom)).toBe('connected');
  });

  it('a refused handshake is tried again later', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { checkSession, last, sockets } = setup();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverRefuse();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(warn).toHaveBeenCalled();
  });

  it('stop() closes the socket and unregisters the client', async () => {
    const { store, client, checkSession, sockets } = setup();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    client.stop();
    expect(sockets[0]?.closed).toBe(true);
    expect(liveClientFor(store)).toBeUndefined();
    expect(store.get(liveStatusAtom)).toBe('idle');
  });
});

describe('live client: watching', () => {
  it('watches what screens ask for, shared between screens, and sends pins:watch / pins:unwatch', async () => {
    const { client, checkSession, last, sockets } = setup();
    const releaseGrid = client.watchPins([1, 2, 3]);
    const releaseDetail = client.watchComments(2);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    expect(socket.emitted).toEqual([{ kind: 'pins:watch', pinIds: [1, 2, 3] }]);
    releaseGrid();
    releaseGrid(); // twice: no effect
    await vi.waitFor(() => expect(socket.emitted).toHaveLength(2));
    expect(socket.emitted[1]).toEqual({ kind: 'pins:unwatch', pinIds: [1, 3] });
    releaseDetail();
    await vi.waitFor(() => expect(socket.watchedIds()).toEqual([]));
  });

  it('logs an error ack', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client, checkSession, last, sockets } = setup();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().answer = () => ({ ok: false, error: 'At most 500 pins can be watched at once.' });
    last().serverConnect();
    client.watchPins([5]);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('pins:watch (1 pins) failed: At most 500 pins can be watched at once.'));
  });

  it('watches everything again after a reconnect', async () => {
    mockApi({});
    const { client, checkSession, last, sockets } = setup();
    client.watchPins([8, 9]);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    socket.serverDisconnect('transport close');
    socket.serverConnect(); // socket.io reconnected the same socket
    expect(socket.emitted).toEqual([
      { kind: 'pins:watch', pinIds: [8, 9] },
      { kind: 'pins:watch', pinIds: [8, 9] },
    ]);
  });
});

describe('live client: resync after a reconnect', () => {
  it('the first connect fetches nothing; a reconnect fetches what is shown and replays what arrived meanwhile', async () => {
    const p1 = makePin(1, alice);
    const p2 = makePin(2, bob);
    const p3 = makePin(3, bob);
    let releasePins: () => void = () => undefined;
    const pinsGate = new Promise<void>((resolve) => (releasePins = resolve));
    const api = mockApi({
      // While away: pin 1 was deleted, pin 3 created, pin 2 renamed; bob's comment on pin 2 added.
      'GET /api/pins/': async () => {
        await pinsGate;
        return { body: { pins: [p3, { ...p2, title: 'Renamed', updated_at: '2026-01-01T00:00:00.000Z' }] } };
      },
      'GET /api/favorites/': { body: { pins: [fav(20, 2, 1)] } },
      'GET /api/boards/': { body: { boards: [makeBoard(5, [p2], alice, 'Renamed board')] } },
      'GET /api/comments/pins/2/comments': { body: { comments: [makeComment(31, 2, bob, 'while away', '2025-06-01T00:00:00.000Z')] } },
    });
    const { store, client, checkSession, last, sockets } = setup(alice);
    checkSession();
    setAllPins(store, [p1, p2]);
    setAllFavorites(store, [fav(10, 1, 1)]);
    setAllBoards(store, [makeBoard(5, [p1, p2], alice)]);
    setPinComments(store, 2, []);
    client.watchComments(2);
    client.watchPins([1]);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls).toEqual([]);

    socket.serverDisconnect('transport close');
    expect(store.get(liveStatusAtom)).toBe('paused');
    socket.serverConnect();
    await vi.waitFor(() => expect(api.sent('GET', '/api/pins/')).toHaveLength(1));
    // An event arrives while the pin list is still on its way: it must survive the older answer.
    const fresh = makePin(4, bob, { created_at: '2026-02-01T00:00:00.000Z', updated_at: '2026-02-01T00:00:00.000Z' });
    socket.serverEmit('pin:created', { pin: fresh });
    releasePins();
    await vi.waitFor(() => expect(store.get(pinsByIdAtom)[3]).toBeDefined());
    await client.settled();

    expect(Object.keys(store.get(pinsByIdAtom)).sort()).toEqual(['2', '3', '4']);
    expect(store.get(pinsByIdAtom)[2]?.title).toBe('Renamed');
    expect(store.get(deletedPinIdsAtom).has(1)).toBe(true);
    expect(Object.keys(store.get(favoritesByIdAtom))).toEqual(['20']);
    expect(store.get(boardsByIdAtom)[5]?.name).toBe('Renamed board');
    expect(store.get(commentsForPinAtom(2)).map((c) => c.text)).toEqual(['while away']);
    expect(api.sent('GET').map((c) => c.path).sort()).toEqual(['/api/boards/', '/api/comments/pins/2/comments', '/api/favorites/', '/api/pins/']);
    expect(store.get(liveStatusAtom)).toBe('connected');
  });

  it('without the full pin list, watched pins are fetched one by one; a 404 means deleted', async () => {
    const api = mockApi({ 'GET /api/pins/2': { body: { ...makePin(2), likes_count: 7 } } });
    const { store, client, checkSession, last, sockets } = setup();
    checkSession();
    upsertPin(store, makePin(1));
    upsertPin(store, makePin(2));
    client.watchPins([1, 2]);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    socket.serverDisconnect('ping timeout');
    socket.serverConnect();
    await vi.waitFor(() => expect(store.get(pinsByIdAtom)[2]?.likes_count).toBe(7));
    await client.settled();
    expect(store.get(pinsByIdAtom)[1]).toBeUndefined();
    expect(store.get(deletedPinIdsAtom).has(1)).toBe(true);
    // Anonymous, nothing private loaded: no favorites or boards fetched.
    expect(api.sent('GET').map((c) => c.path).sort()).toEqual(['/api/pins/1', '/api/pins/2']);
    expect(store.get(commentsByIdAtom)).toEqual({});
  });

  it("answers that arrive after the user changed are dropped", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handlers: Record<string, Handler> = {
      'GET /api/favorites/': async () => {
        await gate;
        return { body: { pins: [fav(10, 1)] } };
      },
    };
    const api = mockApi(handlers);
    const { store, checkSession, last, sockets } = setup(alice);
    checkSession();
    setAllFavorites(store, []);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    last().serverDisconnect('transport close');
    last().serverConnect();
    await vi.waitFor(() => expect(api.sent('GET', '/api/favorites/')).toHaveLength(1));
    setSessionUser(store, bob);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.get(favoritesByIdAtom)).toEqual({});
  });
});
