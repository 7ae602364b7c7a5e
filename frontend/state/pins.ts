import { atom } from 'jotai';
import type { Pin } from '../../contract/index.ts';
import {
  boardsByIdAtom,
  commentsByIdAtom,
  favoritesByIdAtom,
  homeOrderAtom,
  pinsByIdAtom,
  pinsLoadedAtom,
} from './atoms.ts';
import { isStale, toById, without } from './byId.ts';
import type { Store } from './store.ts';

function newestFirst(a: Pin, b: Pin): number {
  return Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;
}

/** Every known pin, newest first. */
export const pinListAtom = atom((get) => Object.values(get(pinsByIdAtom)).sort(newestFirst));

/** Home grid: the shuffled order; pins created after the shuffle come first, deleted ones drop out. */
export const homePinsAtom = atom((get) => {
  const byId = get(pinsByIdAtom);
  const order = get(homeOrderAtom);
  if (!order) return [];
  const placed = new Set(order);
  const fresh = Object.values(byId)
    .filter((pin) => !placed.has(pin.id))
    .sort(newestFirst);
  const rest = order.map((id) => byId[id]).filter((pin): pin is Pin => pin !== undefined);
  return [...fresh, ...rest];
});

export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

/** Fixes the home order once (the first time pins are known); later calls keep it. */
export function ensureHomeOrder(store: Store): void {
  if (store.get(homeOrderAtom)) return;
  store.set(homeOrderAtom, shuffle(Object.keys(store.get(pinsByIdAtom)).map(Number)));
}

/** Keeps the copies of a pin's title and image inside favorites and boards in step with the pin. */
function syncCopies(store: Store, pin: Pin): void {
  const favorites = store.get(favoritesByIdAtom);
  let favChanged = false;
  const nextFavorites = { ...favorites };
  for (const fav of Object.values(favorites)) {
    if (fav.pin_id === pin.id && (fav.title !== pin.title || fav.image_url !== pin.image_url || fav.likes_count !== pin.likes_count)) {
      nextFavorites[fav.id] = { ...fav, title: pin.title, image_url: pin.image_url, likes_count: pin.likes_count };
      favChanged = true;
    }
  }
  if (favChanged) store.set(favoritesByIdAtom, nextFavorites);

  const boards = store.get(boardsByIdAtom);
  let boardChanged = false;
  const nextBoards = { ...boards };
  for (const board of Object.values(boards)) {
    if (board.pins.some((p) => p.id === pin.id && (p.title !== pin.title || p.image_url !== pin.image_url))) {
      nextBoards[board.id] = {
        ...board,
        pins: board.pins.map((p) => (p.id === pin.id ? { ...p, title: pin.title, image_url: pin.image_url } : p)),
      };
      boardChanged = true;
    }
  }
  if (boardChanged) store.set(boardsByIdAtom, nextBoards);
}

/** Idempotent insert-or-update; an older copy (by updated_at) never overwrites a newer one. */
export function upsertPin(store: Store, pin: Pin): void {
  const current = store.get(pinsByIdAtom)[pin.id];
  if (isStale(current, pin)) return;
  store.set(pinsByIdAtom, (prev) => ({ ...prev, [pin.id]: pin }));
  syncCopies(store, pin);
}

/** Replaces the whole pin collection with a full list from the server. */
export function setAllPins(store: Store, pins: readonly Pin[]): void {
  store.set(pinsByIdAtom, toById(pins));
  store.set(pinsLoadedAtom, true);
  for (const pin of pins) syncCopies(store, pin);
}

/** Removes a pin everywhere it shows: pins, favorites, boards and its comments. Idempotent. */
export function removePin(store: Store, pinId: number): void {
  store.set(pinsByIdAtom, (prev) => without(prev, pinId));
  store.set(favoritesByIdAtom, (prev) => {
    const hit = Object.values(prev).filter((f) => f.pin_id === pinId);
    return hit.length ? hit.reduce((acc, f) => without(acc, f.id), prev) : prev;
  });
  store.set(boardsByIdAtom, (prev) => {
    const hit = Object.values(prev).filter((b) => b.pins.some((p) => p.id === pinId));
    if (!hit.length) return prev;
    const next = { ...prev };
    for (const b of hit) next[b.id] = { ...b, pins: b.pins.filter((p) => p.id !== pinId) };
    return next;
  });
  store.set(commentsByIdAtom, (prev) => {
    const hit = Object.values(prev).filter((c) => c.pin_id === pinId);
    return hit.length ? hit.reduce((acc, c) => without(acc, c.id), prev) : prev;
  });
}

/** A pin's like count changed (favorite added or removed by anyone). */
export function setPinLikes(store: Store, pinId: number, likesCount: number): void {
  const pin = store.get(pinsByIdAtom)[pinId];
  if (pin && pin.likes_count !== likesCount) {
    store.set(pinsByIdAtom, (prev) => ({ ...prev, [pinId]: { ...pin, likes_count: likesCount } }));
  }
  const favorites = store.get(favoritesByIdAtom);
  const hit = Object.values(favorites).filter((f) => f.pin_id === pinId && f.likes_count !== likesCount);
  if (hit.length) {
    const next = { ...favorites };
    for (const f of hit) next[f.id] = { ...f, likes_count: likesCount };
    store.set(favoritesByIdAtom, next);
  }
}
