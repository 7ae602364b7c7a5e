import { describe, expect, it, vi } from 'vitest';
import type { Favorite } from '../../contract/index.ts';
import { fetchFavoritePage } from '../api/favorites.ts';
import { alice, bob, makePin, mockApi, type Handler } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';
import { commentsByIdAtom, deletedPinIdsAtom, favoriteRefsAtom, favoritesByIdAtom, liveStatusAtom, pinsByIdAtom } from '../state/atoms.ts';
import { upsertFavorites } from '../state/favorites.ts';
import { loadFirstPage, refreshFirstPage, type ListSource } from '../state/list-loader.ts';
import { getList, LIST } from '../state/lists.ts';
import { upsertPin, upsertPins } from '../state/pins.ts';
import { setSessionUser } from '../state/session.ts';
import { favoriteOf as fav } from '../test-support/favorites.ts';

/** The favorites list as the favorites screen pages it. */
const favoritesSource = (userId: number): ListSource<Favorite> => ({
  key: LIST.favorites(userId),
  fetchPage: async (cursor) => {
    const page = await fetchFavoritePage({ cursor });
    return { items: page.pins, nextCursor: page.nextCursor };
  },
  keep: upsertFavorites,
  idOf: (f) => f.id,
});

describe('live client: resync after a reconnect', () => {
  it('the first connect fetches nothing; a reconnect fetches the pins and lists on screen and replays what arrived meanwhile', async () => {
    const p1 = makePin(1, alice);
    const p2 = makePin(2, bob);
    let releasePin: () => void = () => undefined;
    const pinGate = new Promise<void>((resolve) => (releasePin = resolve));
    let favorites = [fav(10, 1, 1)];
    const api = mockApi({
      // While away: pin 1 was deleted, pin 2 renamed; favorite 10 removed and 20 added.
      'GET /api/pins/2': async () => {
        await pinGate;
        return { body: { ...p2, title: 'Renamed', updated_at: '2026-01-01T00:00:00.000Z' } };
      },
      'GET /api/favorites/': () => ({ body: { pins: favorites, nextCursor: null } }),
    });
    const { store, client, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    upsertPins(store, [p1, p2]);
    client.watchPins([1, 2]); // the cards on screen
    const source = favoritesSource(alice.id);
    await loadFirstPage(store, source); // the favorites screen is open
    client.refreshOnReconnect(() => refreshFirstPage(store, source));
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.sent('GET').map((c) => c.path)).toEqual(['/api/favorites/']);

    favorites = [fav(20, 2, 1)];
    socket.serverDisconnect('transport close');
    expect(store.get(liveStatusAtom)).toBe('paused');
    socket.serverConnect();
    await vi.waitFor(() => expect(api.sent('GET', '/api/pins/2')).toHaveLength(1));
    // An event arrives while pin 2 is still on its way: it must survive the older answer.
    const fresh = makePin(4, bob, { created_at: '2026-02-01T00:00:00.000Z', updated_at: '2026-02-01T00:00:00.000Z' });
    socket.serverEmit('pin:created', { pin: fresh });
    releasePin();
    await vi.waitFor(() => expect(store.get(pinsByIdAtom)[2]?.title).toBe('Renamed'));
    await client.settled();

    expect(Object.keys(store.get(pinsByIdAtom)).sort()).toEqual(['2', '4']);
    expect(store.get(deletedPinIdsAtom).has(1)).toBe(true);
    expect(getList(store, LIST.favorites(alice.id)).ids).toEqual([20]);
    expect(
      api
        .sent('GET')
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/api/favorites/', '/api/favorites/', '/api/pins/1', '/api/pins/2']);
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
    expect(
      api
        .sent('GET')
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/api/pins/1', '/api/pins/2']);
    expect(store.get(commentsByIdAtom)).toEqual({});
  });

  it('answers that arrive after the user changed are dropped', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const handlers: Record<string, Handler> = {
      'GET /api/favorites/': async () => {
        calls += 1;
        if (calls > 1) await gate;
        return { body: { pins: [fav(10, 1)], nextCursor: null } };
      },
    };
    const api = mockApi(handlers);
    const { store, client, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    const source = favoritesSource(alice.id);
    await loadFirstPage(store, source);
    upsertFavorites(store, []);
    store.set(favoriteRefsAtom, {});
    client.refreshOnReconnect(() => refreshFirstPage(store, source));
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    last().serverDisconnect('transport close');
    last().serverConnect();
    await vi.waitFor(() => expect(api.sent('GET', '/api/favorites/')).toHaveLength(2));
    setSessionUser(store, bob);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.get(favoritesByIdAtom)).toEqual({});
  });
});
