import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { alice, makeBoard, makeComment, makePin } from '../test-support/render.tsx';
import { boardsByIdAtom, commentsByIdAtom, deletedPinIdsAtom, favoritesByIdAtom, pinsByIdAtom } from './atoms.ts';
import { addPinToBoard, formatPinCount, removePinFromBoard, upsertBoards } from './boards.ts';
import { formatCommentDate, removeComment, upsertComment } from './comments.ts';
import { favoriteIdByPinAtom, removeFavorite, setNewestFavorites, upsertFavorite } from './favorites.ts';
import { appendPage, EMPTY_LIST, firstPage, mergeFirstPage, withFirst, withoutId } from './lists.ts';
import { removePin, upsertPin, upsertPins } from './pins.ts';

describe('entity helpers', () => {
  it('upsertPin is idempotent and ignores an older copy', () => {
    const store = createStore();
    const pin = makePin(1);
    upsertPin(store, pin);
    upsertPin(store, pin);
    expect(Object.keys(store.get(pinsByIdAtom))).toEqual(['1']);
    upsertPin(store, { ...pin, title: 'New', updated_at: '2026-01-01T00:00:00.000Z' });
    upsertPin(store, { ...pin, title: 'Old', updated_at: '2025-01-01T00:00:00.000Z' });
    expect(store.get(pinsByIdAtom)[1]?.title).toBe('New');
  });

  it('an updated pin updates its copies in favorites and boards', () => {
    const store = createStore();
    const pin = makePin(1);
    upsertPins(store, [pin]);
    upsertBoards(store, [makeBoard(1, [pin])]);
    upsertFavorite(store, { id: 9, pin_id: 1, title: pin.title, image_url: pin.image_url, image: null, likes_count: 1, likes_version: 1, visibility: 'public' });
    upsertPin(store, { ...pin, title: 'Renamed', updated_at: '2026-01-01T00:00:00.000Z' });
    expect(store.get(favoritesByIdAtom)[9]?.title).toBe('Renamed');
    expect(store.get(boardsByIdAtom)[1]?.pins[0]?.title).toBe('Renamed');
  });

  it('removePin removes the pin from favorites, boards and its comments, and can run twice', () => {
    const store = createStore();
    const pin = makePin(1);
    upsertPins(store, [pin, makePin(2)]);
    upsertBoards(store, [makeBoard(1, [pin, makePin(2)])]);
    upsertFavorite(store, { id: 9, pin_id: 1, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1, visibility: 'public' });
    upsertComment(store, makeComment(4, 1, alice, 'x', '2025-01-01T00:00:00.000Z'));
    removePin(store, 1);
    removePin(store, 1);
    expect(store.get(pinsByIdAtom)[1]).toBeUndefined();
    expect(store.get(favoritesByIdAtom)).toEqual({});
    expect(store.get(boardsByIdAtom)[1]?.pins.map((p) => p.id)).toEqual([2]);
    expect(store.get(commentsByIdAtom)).toEqual({});
  });

  it('favorites: one per pin, removal by favorite id, like counts follow', () => {
    const store = createStore();
    upsertPins(store, [makePin(1)]);
    upsertFavorite(store, { id: 9, pin_id: 1, title: '', image_url: '', image: null, likes_count: 5, likes_version: 5, visibility: 'public' });
    upsertFavorite(store, { id: 9, pin_id: 1, title: '', image_url: '', image: null, likes_count: 5, likes_version: 5, visibility: 'public' });
    expect(store.get(favoriteIdByPinAtom)).toEqual({ 1: 9 });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(5);
    removeFavorite(store, 9, 1, { likes_count: 4, likes_version: 6 });
    removeFavorite(store, 9, 1, { likes_count: 4, likes_version: 6 });
    expect(store.get(favoriteIdByPinAtom)).toEqual({});
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(4);
  });

  it('board pins add and remove idempotently, with the count; counts are two digits', () => {
    const store = createStore();
    upsertBoards(store, [makeBoard(1)]);
    const p = { id: 3, title: 't', image_url: '/a.svg', image: null };
    addPinToBoard(store, 1, p);
    addPinToBoard(store, 1, p);
    expect(store.get(boardsByIdAtom)[1]).toMatchObject({ pin_count: 1, pins: [p] });
    removePinFromBoard(store, 1, 3);
    removePinFromBoard(store, 1, 3);
    expect(store.get(boardsByIdAtom)[1]).toMatchObject({ pin_count: 0, pins: [] });
    expect(formatPinCount(0)).toBe('00');
    expect(formatPinCount(7)).toBe('07');
    expect(formatPinCount(12)).toBe('12');
  });

  it('comments: upsert ignores an older edit; month and year', () => {
    const store = createStore();
    const a = makeComment(1, 1, alice, 'a', '2024-01-05T00:00:00.000Z');
    upsertComment(store, { ...a, text: 'new', updated_at: '2025-01-01T00:00:00.000Z' });
    upsertComment(store, a);
    expect(store.get(commentsByIdAtom)[1]?.text).toBe('new');
    removeComment(store, 1);
    removeComment(store, 1);
    expect(store.get(commentsByIdAtom)).toEqual({});
    expect(formatCommentDate('2025-11-03T10:00:00.000Z')).toBe('November 2025');
  });

  it('a page never brings back a pin this tab saw deleted', () => {
    const store = createStore();
    store.set(deletedPinIdsAtom, new Set([2]));
    upsertPins(store, [makePin(1), makePin(2)]);
    expect(Object.keys(store.get(pinsByIdAtom))).toEqual(['1']);
  });

  it('the newest favorites page drops, within its range, favorites removed elsewhere', () => {
    const store = createStore();
    upsertFavorite(store, { id: 3, pin_id: 30, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1, visibility: 'public' });
    upsertFavorite(store, { id: 8, pin_id: 80, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1, visibility: 'public' });
    upsertFavorite(store, { id: 9, pin_id: 90, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1, visibility: 'public' });
    // Page one (more to come) covers ids above 5: 8 is gone, 3 is beyond the page and stays.
    setNewestFavorites(
      store,
      [
        { id: 9, pin_id: 90, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1, visibility: 'public' },
        { id: 6, pin_id: 60, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1 },
      ],
      'c',
    );
    expect(
      Object.keys(store.get(favoritesByIdAtom))
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([3, 6, 9]);
    setNewestFavorites(store, [{ id: 9, pin_id: 90, title: '', image_url: '', image: null, likes_count: 1, likes_version: 1, visibility: 'public' }], null);
    expect(Object.keys(store.get(favoritesByIdAtom))).toEqual(['9']);
  });
});

describe('paged lists', () => {
  it('appends pages, skipping ids already listed; page one starts over', () => {
    let list = firstPage([1, 2, 3], 'c1');
    list = appendPage(list, [3, 4, 4, 5], 'c2');
    expect(list).toEqual({ ids: [1, 2, 3, 4, 5], nextCursor: 'c2', pages: 2, status: 'ready' });
    list = appendPage(list, [6], null);
    expect(list.nextCursor).toBeNull();
    expect(firstPage([9], null)).toEqual({ ids: [9], nextCursor: null, pages: 1, status: 'ready' });
  });

  it('adds at the top only once and only to a loaded list; removes by id', () => {
    expect(withFirst(EMPTY_LIST, 1)).toBe(EMPTY_LIST);
    const list = firstPage([1, 2], null);
    expect(withFirst(list, 3).ids).toEqual([3, 1, 2]);
    expect(withFirst(list, 2)).toBe(list);
    expect(withoutId(list, 1).ids).toEqual([2]);
    expect(withoutId(list, 7)).toBe(list);
  });

  it('merges page one fetched again over more pages: new first, removed gone, later pages kept', () => {
    const loaded = appendPage(firstPage([10, 9, 8], 'c1'), [7, 6, 5], 'c2');
    // Meanwhile 11 was added and 9 removed: page one now reads 11, 10, 8.
    expect(mergeFirstPage(loaded, [11, 10, 8], 'x1')).toMatchObject({ ids: [11, 10, 8, 7, 6, 5], nextCursor: 'c2', pages: 2 });
    // A list no longer than the page is simply replaced.
    expect(mergeFirstPage(firstPage([3, 2], null), [4, 3], null)).toMatchObject({ ids: [4, 3], nextCursor: null, pages: 1 });
  });
});
