import { describe, expect, it, vi } from 'vitest';
import { alice, mockApi } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';
import { favoritesByIdAtom, liveStatusAtom, sessionUserAtom } from '../state/atoms.ts';
import { upsertFavorites } from '../state/favorites.ts';
import { loadHeartFavorites } from '../hooks/useFavoriteToggle.ts';
import { favoriteOf as fav } from '../test-support/favorites.ts';

describe('live connection: a socket the server closed', () => {
  it('asks for the session and, still signed in, reconnects with a resync', async () => {
    const api = mockApi({ 'GET /api/auth/': { body: { user: alice } }, 'GET /api/favorites/': { body: { pins: [] } } });
    const { store, client, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    upsertFavorites(store, [fav(9, 1)]);
    client.refreshOnReconnect(() => loadHeartFavorites(store, alice.id)); // as the layout does
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

  it('asks for the session and, signed out meanwhile, goes on as anonymous', async () => {
    const api = mockApi({ 'GET /api/auth/': { body: { user: null } } });
    const { store, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    upsertFavorites(store, [fav(9, 1)]);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    last().serverDisconnect('io server disconnect');
    await vi.waitFor(() => expect(store.get(sessionUserAtom)).toBeNull());
    expect(store.get(favoritesByIdAtom)).toEqual({});
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(api.sent('GET', '/api/auth/')).toHaveLength(1);
    expect(api.sent('GET', '/api/favorites/')).toHaveLength(0);
  });
});
