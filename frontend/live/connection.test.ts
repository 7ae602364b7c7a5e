import { describe, expect, it, vi } from 'vitest';
import { alice, makeBoard, makePin } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';
import { boardsByIdAtom, favoritesByIdAtom, liveStatusAtom, pinsByIdAtom, sessionCheckedAtom, sessionUserAtom } from '../state/atoms.ts';
import { upsertFavorites } from '../state/favorites.ts';
import { clearSession, setSessionUser } from '../state/session.ts';
import { liveClientFor } from './client.ts';
import { favoriteOf as fav } from '../test-support/favorites.ts';

describe('live connection: socket lifecycle', () => {
  it('opens one socket after the session check, not before', async () => {
    const { store, sockets, checkSession, client } = setupLive();
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
    const { store, sockets, checkSession, last } = setupLive();
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
    const { store, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    last().serverEmit('pin:created', { pin: makePin(4) });
    last().serverEmit('board:created', { board: makeBoard(2), seq: 1 });
    expect(store.get(pinsByIdAtom)[4]?.title).toBe('Pin 4');
    expect(store.get(boardsByIdAtom)[2]?.name).toBe('Board 2');
  });

  it('session:ended signs the tab out and reconnects as anonymous', async () => {
    const { store, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    upsertFavorites(store, [fav(9, 1)]);
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
    const { store, client, checkSession, last, sockets } = setupLive(alice);
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

  it('a refused handshake is tried again later', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { checkSession, last, sockets } = setupLive();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverRefuse();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(warn).toHaveBeenCalled();
  });

  it('stop() closes the socket and unregisters the client', async () => {
    const { store, client, checkSession, sockets } = setupLive();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    client.stop();
    expect(sockets[0]?.closed).toBe(true);
    expect(liveClientFor(store)).toBeUndefined();
    expect(store.get(liveStatusAtom)).toBe('idle');
  });
});
