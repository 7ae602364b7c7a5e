import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { alice, makeBoard, makeComment, makePin } from '../test-support/render.tsx';
import { boardsByIdAtom, commentsByIdAtom, favoritesByIdAtom, pinsByIdAtom } from './atoms.ts';
import { addPinToBoard, boardListAtom, formatPinCount, removePinFromBoard, setAllBoards } from './boards.ts';
import { commentsForPinAtom, formatCommentDate, removeComment, setPinComments, upsertComment } from './comments.ts';
import { favoriteIdByPinAtom, removeFavorite, upsertFavorite } from './favorites.ts';
import { removePin, setAllPins, shuffle, upsertPin } from './pins.ts';

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
    setAllPins(store, [pin]);
    setAllBoards(store, [makeBoard(1, [pin])]);
    upsertFavorite(store, { id: 9, pin_id: 1, title: pin.title, image_url: pin.image_url, likes_count: 1 });
    upsertPin(store, { ...pin, title: 'Renamed', updated_at: '2026-01-01T00:00:00.000Z' });
    expect(store.get(favoritesByIdAtom)[9]?.title).toBe('Renamed');
    expect(store.get(boardsByIdAtom)[1]?.pins[0]?.title).toBe('Renamed');
  });

  it('removePin removes the pin from favorites, boards and its comments, and can run twice', () => {
    const store = createStore();
    const pin = makePin(1);
    setAllPins(store, [pin, makePin(2)]);
    setAllBoards(store, [makeBoard(1, [pin, makePin(2)])]);
    upsertFavorite(store, { id: 9, pin_id: 1, title: '', image_url: '', likes_count: 1 });
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
    setAllPins(store, [makePin(1)]);
    upsertFavorite(store, { id: 9, pin_id: 1, title: '', image_url: '', likes_count: 5 });
    upsertFavorite(store, { id: 9, pin_id: 1, title: '', image_url: '', likes_count: 5 });
    expect(store.get(favoriteIdByPinAtom)).toEqual({ 1: 9 });
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(5);
    removeFavorite(store, 9, 1, 4);
    removeFavorite(store, 9, 1, 4);
    expect(store.get(favoriteIdByPinAtom)).toEqual({});
    expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(4);
  });

  it('board pins add and remove idempotently; counts are two digits', () => {
    const store = createStore();
    setAllBoards(store, [makeBoard(1)]);
    const p = { id: 3, title: 't', image_url: '/a.svg' };
    addPinToBoard(store, 1, p);
    addPinToBoard(store, 1, p);
    expect(store.get(boardListAtom)[0]?.pins).toHaveLength(1);
    removePinFromBoard(store, 1, 3);
    removePinFromBoard(store, 1, 3);
    expect(store.get(boardListAtom)[0]?.pins).toHaveLength(0);
    expect(formatPinCount(0)).toBe('00');
    expect(formatPinCount(7)).toBe('07');
    expect(formatPinCount(12)).toBe('12');
  });

  it('comments: newest first per pin, replaced per pin, month and year', () => {
    const store = createStore();
    const a = makeComment(1, 1, alice, 'a', '2024-01-05T00:00:00.000Z');
    const b = makeComment(2, 1, alice, 'b', '2025-06-05T00:00:00.000Z');
    const other = makeComment(3, 2, alice, 'c', '2025-06-05T00:00:00.000Z');
    setPinComments(store, 1, [a, b]);
    upsertComment(store, other);
    expect(store.get(commentsForPinAtom(1)).map((c) => c.id)).toEqual([2, 1]);
    setPinComments(store, 1, [a]);
    expect(store.get(commentsForPinAtom(1)).map((c) => c.id)).toEqual([1]);
    expect(store.get(commentsForPinAtom(2)).map((c) => c.id)).toEqual([3]);
    removeComment(store, 3);
    removeComment(store, 3);
    expect(store.get(commentsForPinAtom(2))).toEqual([]);
    expect(formatCommentDate('2025-11-03T10:00:00.000Z')).toBe('November 2025');
  });

  it('shuffle keeps every item', () => {
    const items = [1, 2, 3, 4, 5];
    expect(shuffle(items).sort()).toEqual(items);
  });
});
