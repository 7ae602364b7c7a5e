import { describe, expect, it, vi } from 'vitest';
import { alice, bob, makeBoard, makeComment, makePin, mockApi, type Handler } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';
import { boardsByIdAtom, commentsByIdAtom, deletedPinIdsAtom, favoritesByIdAtom, liveStatusAtom, pinsByIdAtom } from '../state/atoms.ts';
import { setAllBoards } from '../state/boards.ts';
import { commentsForPinAtom, setPinComments } from '../state/comments.ts';
import { setAllFavorites } from '../state/favorites.ts';
import { setAllPins, upsertPin } from '../state/pins.ts';
import { setSessionUser } from '../state/session.ts';

const fav = (id: number, pinId: number, likes = 1) => ({ id, pin_id: pinId, title: `Pin ${pinId}`, image_url: `/seed-images/${pinId}.svg`, likes_count: likes });

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
    const { store, client, checkSession, last, sockets } = setupLive(alice);
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
    const { store, client, checkSession, last, sockets } = setupLive();
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

  it('answers that arrive after the user changed are dropped', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handlers: Record<string, Handler> = {
      'GET /api/favorites/': async () => {
        await gate;
        return { body: { pins: [fav(10, 1)] } };
      },
    };
    const api = mockApi(handlers);
    const { store, checkSession, last, sockets } = setupLive(alice);
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
