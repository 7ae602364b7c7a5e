import { createStore } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import type { ServerEventName, ServerEventPayload } from '../../contract/events.ts';
import { alice, bob, makeBoard, makeComment, makePin } from '../test-support/render.tsx';
import { boardsByIdAtom, commentsByIdAtom, deletedPinIdsAtom, favoritesByIdAtom, pinsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { upsertBoards } from '../state/boards.ts';
import { upsertComments } from '../state/comments.ts';
import { upsertFavorites } from '../state/favorites.ts';
import { upsertPins } from '../state/pins.ts';
import { setSessionUser } from '../state/session.ts';
import { createEventApplier } from './apply.ts';
import { favoriteOf as fav } from '../test-support/favorites.ts';

function setup() {
  const store = createStore();
  const applier = createEventApplier(store);
  const send = <E extends ServerEventName>(name: E, payload: Omit<ServerEventPayload<E>, 'seq'>) => applier.apply(name, payload);
  return { store, applier, send };
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('server events → store', () => {
  it('pin:created and pin:updated upsert by id, idempotently; an older copy is ignored', () => {
    const { store, send } = setup();
    const pin = makePin(1);
    expect(send('pin:created', { pin })).toBe(true);
    expect(send('pin:created', { pin })).toBe(true);
    expect(Object.keys(store.get(pinsByIdAtom))).toEqual(['1']);
    const newer = { ...pin, title: 'Newer', updated_at: later(pin.updated_at, 60_000) };
    send('pin:updated', { pin: newer });
    send('pin:updated', { pin: { ...pin, title: 'Stale' } }); // arrives late, older updated_at
    expect(store.get(pinsByIdAtom)[1]?.title).toBe('Newer');
    send('pin:updated', { pin: newer });
    expect(store.get(pinsByIdAtom)[1]).toEqual(newer);
  });

  it('pin:deleted drops the pin from pins, favorites, boards and comments; late events do not bring it back', () => {
    const { store, send } = setup();
    const [p1, p2] = [makePin(1), makePin(2)];
    upsertPins(store, [p1, p2]);
    upsertFavorites(store, [fav(9, 1), fav(10, 2)]);
    upsertBoards(store, [makeBoard(5, [p1, p2])]);
    upsertComments(store, [makeComment(3, 1, bob, 'nice', '2025-02-01T00:00:00.000Z')]);
    send('pin:deleted', { pinId: 1 });
    send('pin:deleted', { pinId: 1 });
    expect(Object.keys(store.get(pinsByIdAtom))).toEqual(['2']);
    expect(Object.keys(store.get(favoritesByIdAtom))).toEqual(['10']);
    expect(store.get(boardsByIdAtom)[5]?.pins.map((p) => p.id)).toEqual([2]);
    expect(store.get(commentsByIdAtom)).toEqual({});
    expect(store.get(deletedPinIdsAtom).has(1)).toBe(true);

    // Out-of-order deliveries for the deleted pin change nothing.
    send('pin:updated', { pin: { ...p1, updated_at: later(p1.updated_at, 1000) } });
    send('pin:created', { pin: p1 });
    send('comment:created', { comment: makeComment(4, 1, bob, 'late', '2025-03-01T00:00:00.000Z') });
    send('favorite:added', { favorite: fav(11, 1) });
    send('board:pin-added', { boardId: 5, pin: { id: 1, title: 'Pin 1', image_url: '/x.svg', image: null, visibility: 'public' }, pinCount: 3 });
    send('board:updated', { board: makeBoard(5, [p1, p2]) });
    expect(store.get(pinsByIdAtom)[1]).toBeUndefined();
    expect(store.get(commentsByIdAtom)).toEqual({});
    expect(Object.keys(store.get(favoritesByIdAtom))).toEqual(['10']);
    expect(store.get(boardsByIdAtom)[5]?.pins.map((p) => p.id)).toEqual([2]);
  });

  it('pin:likes sets the count on the pin and on its favorite, newest version wins', () => {
    const { store, send } = setup();
    upsertPins(store, [makePin(1)]);
    upsertFavorites(store, [fav(9, 1, 1)]);
    send('pin:likes', { pinId: 1, likesCount: 4, version: 6 });
    send('pin:likes', { pinId: 1, likesCount: 4, version: 6 });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(4);
    expect(store.get(favoritesByIdAtom)[9]?.likes_count).toBe(4);
    // An older count that arrives late (another instance published it later) is ignored.
    send('pin:likes', { pinId: 1, likesCount: 3, version: 5 });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(4);
    send('pin:likes', { pinId: 1, likesCount: 5, version: 7 });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(5);
    expect(store.get(favoritesByIdAtom)[9]?.likes_count).toBe(5);
    send('pin:likes', { pinId: 77, likesCount: 2, version: 1 }); // unknown pin: nothing to update
    expect(Object.keys(store.get(pinsByIdAtom))).toEqual(['1']);
  });

  it('a favorite told late cannot put back an older count: the count has one writer, by version', () => {
    const { store, send } = setup();
    upsertPins(store, [makePin(1)]);
    send('pin:likes', { pinId: 1, likesCount: 6, version: 6 });
    // Its own favorite:added (count 5 at version 5) arrives after the newer count, then the count it went with.
    send('favorite:added', { favorite: fav(9, 1, 5, 5) });
    send('pin:likes', { pinId: 1, likesCount: 5, version: 5 });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(6);
    expect(store.get(favoritesByIdAtom)[9]?.likes_count).toBe(6);
    // A newer one, told by a favorite, is taken.
    send('favorite:added', { favorite: fav(10, 1, 7, 7) });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(7);
  });

  it('comment events upsert, ignore an older edit, delete, and a late update does not revive a deleted comment', () => {
    const { store, send } = setup();
    const c = makeComment(3, 1, bob, 'first', '2025-02-01T00:00:00.000Z');
    send('comment:created', { comment: c });
    send('comment:created', { comment: c });
    expect(Object.keys(store.get(commentsByIdAtom))).toEqual(['3']);
    const edited = { ...c, text: 'edited', updated_at: later(c.updated_at, 5000) };
    send('comment:updated', { comment: edited });
    send('comment:updated', { comment: { ...c, text: 'older edit', updated_at: later(c.updated_at, 1000) } });
    expect(store.get(commentsByIdAtom)[3]?.text).toBe('edited');
    send('comment:deleted', { commentId: 3, pinId: 1 });
    send('comment:deleted', { commentId: 3, pinId: 1 });
    expect(store.get(commentsByIdAtom)).toEqual({});
    send('comment:updated', { comment: { ...edited, updated_at: later(c.updated_at, 9000) } });
    expect(store.get(commentsByIdAtom)).toEqual({});
  });

  it('favorite events add (with the like count) and remove by favorite id, idempotently', () => {
    const { store, send } = setup();
    upsertPins(store, [makePin(1)]);
    send('favorite:added', { favorite: fav(9, 1, 3) });
    send('favorite:added', { favorite: fav(9, 1, 3) });
    expect(Object.keys(store.get(favoritesByIdAtom))).toEqual(['9']);
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(3);
    send('favorite:removed', { favoriteId: 9, pinId: 1 });
    send('favorite:removed', { favoriteId: 9, pinId: 1 });
    expect(store.get(favoritesByIdAtom)).toEqual({});
    send('favorite:added', { favorite: fav(9, 1, 3) }); // a late duplicate of the removed one
    expect(store.get(favoritesByIdAtom)).toEqual({});
  });

  it('board events create, rename, add and remove pins, delete — each idempotent', () => {
    const { store, send } = setup();
    const board = makeBoard(5);
    send('board:created', { board });
    send('board:created', { board });
    send('board:updated', { board: { ...board, name: 'Renamed' } });
    const pin = { id: 1, title: 'Pin 1', image_url: '/seed-images/1.svg', image: null };
    send('board:pin-added', { boardId: 5, pin, pinCount: 1 });
    send('board:pin-added', { boardId: 5, pin, pinCount: 1 });
    expect(store.get(boardsByIdAtom)[5]).toEqual({ ...board, name: 'Renamed', pin_count: 1, pins: [pin] });
    send('board:pin-removed', { boardId: 5, pinId: 1, pinCount: 0 });
    send('board:pin-removed', { boardId: 5, pinId: 1, pinCount: 0 });
    expect(store.get(boardsByIdAtom)[5]).toMatchObject({ pin_count: 0, pins: [] });
    // The server's count wins over counting: a board with pins this tab never loaded.
    send('board:pin-added', { boardId: 5, pin, pinCount: 40 });
    expect(store.get(boardsByIdAtom)[5]).toMatchObject({ pin_count: 40, pins: [pin] });
    send('board:pin-removed', { boardId: 5, pinId: 99, pinCount: 39 });
    expect(store.get(boardsByIdAtom)[5]).toMatchObject({ pin_count: 39 });
    send('board:deleted', { boardId: 5 });
    send('board:deleted', { boardId: 5 });
    expect(store.get(boardsByIdAtom)).toEqual({});
    send('board:updated', { board: { ...board, name: 'Late' } });
    expect(store.get(boardsByIdAtom)).toEqual({});
  });

  it('session:ended signs the tab out and drops private data', () => {
    const { store, send } = setup();
    setSessionUser(store, alice);
    upsertFavorites(store, [fav(9, 1)]);
    upsertBoards(store, [makeBoard(5)]);
    send('session:ended', {});
    expect(store.get(sessionUserAtom)).toBeNull();
    expect(store.get(favoritesByIdAtom)).toEqual({});
    expect(store.get(boardsByIdAtom)).toEqual({});
  });

  it('unknown events and malformed payloads are refused without throwing', () => {
    const { applier } = setup();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(applier.apply('nope', {})).toBe(false);
    expect(applier.apply('toString', {})).toBe(false);
    expect(applier.apply('pin:created', null)).toBe(false);
    expect(applier.apply('pin:created', {})).toBe(false); // no pin: the handler fails, caught
    expect(warn).toHaveBeenCalled();
  });
});
