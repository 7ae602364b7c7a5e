import type { Pin } from '../../contract/index.ts';
import { boardPinsByIdAtom, boardsByIdAtom, commentsByIdAtom, deletedPinIdsAtom, favoritesByIdAtom, pinsByIdAtom } from './atoms.ts';
import { isStale, without } from './byId.ts';
import { dropPinFromBoards } from './boards.ts';
import type { Store } from './store.ts';

type ImageCopy = Pick<Pin, 'image_url' | 'image'>;

/** A stored image is named by its thumbnails' addresses (content-addressed), so they tell it apart. */
function sameImage(a: ImageCopy, b: ImageCopy): boolean {
  return a.image_url === b.image_url && a.image?.thumbnails['236'] === b.image?.thumbnails['236'];
}

/** Keeps the copies of a pin's title and image inside favorites and boards in step with the pin. */
function syncCopies(store: Store, pin: Pin): void {
  const favorites = store.get(favoritesByIdAtom);
  let favChanged = false;
  const nextFavorites = { ...favorites };
  for (const fav of Object.values(favorites)) {
    if (fav.pin_id === pin.id && (fav.title !== pin.title || !sameImage(fav, pin) || fav.likes_count !== pin.likes_count)) {
      nextFavorites[fav.id] = { ...fav, title: pin.title, image_url: pin.image_url, image: pin.image, likes_count: pin.likes_count };
      favChanged = true;
    }
  }
  if (favChanged) store.set(favoritesByIdAtom, nextFavorites);

  const boards = store.get(boardsByIdAtom);
  let boardChanged = false;
  const nextBoards = { ...boards };
  for (const board of Object.values(boards)) {
    if (board.pins.some((p) => p.id === pin.id && (p.title !== pin.title || !sameImage(p, pin)))) {
      nextBoards[board.id] = {
        ...board,
        pins: board.pins.map((p) => (p.id === pin.id ? { ...p, title: pin.title, image_url: pin.image_url, image: pin.image } : p)),
      };
      boardChanged = true;
    }
  }
  if (boardChanged) store.set(boardsByIdAtom, nextBoards);

  const shown = store.get(boardPinsByIdAtom)[pin.id];
  if (shown && (shown.title !== pin.title || !sameImage(shown, pin))) {
    store.set(boardPinsByIdAtom, (prev) => ({ ...prev, [pin.id]: { id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image } }));
  }
}

/** Idempotent insert-or-update; an older copy (by updated_at) never overwrites a newer one. */
export function upsertPin(store: Store, pin: Pin): void {
  const current = store.get(pinsByIdAtom)[pin.id];
  if (isStale(current, pin)) return;
  store.set(pinsByIdAtom, (prev) => ({ ...prev, [pin.id]: pin }));
  syncCopies(store, pin);
}

/**
 * The pins of a page, in one store update. A pin this tab saw deleted is left out (an answer
 * taken before the deletion must not bring it back); an older copy never overwrites a newer one.
 */
export function upsertPins(store: Store, pins: readonly Pin[]): void {
  const deleted = store.get(deletedPinIdsAtom);
  const current = store.get(pinsByIdAtom);
  const fresh = pins.filter((pin) => !deleted.has(pin.id) && !isStale(current[pin.id], pin) && current[pin.id] !== pin);
  if (!fresh.length) return;
  store.set(pinsByIdAtom, (prev) => {
    const next = { ...prev };
    for (const pin of fresh) next[pin.id] = pin;
    return next;
  });
  for (const pin of fresh) syncCopies(store, pin);
}

/** Removes a pin everywhere it shows: pins, favorites, boards and its comments. Idempotent. */
export function removePin(store: Store, pinId: number): void {
  store.set(pinsByIdAtom, (prev) => without(prev, pinId));
  store.set(favoritesByIdAtom, (prev) => {
    const hit = Object.values(prev).filter((f) => f.pin_id === pinId);
    return hit.length ? hit.reduce((acc, f) => without(acc, f.id), prev) : prev;
  });
  dropPinFromBoards(store, pinId);
  store.set(commentsByIdAtom, (prev) => {
    const hit = Object.values(prev).filter((c) => c.pin_id === pinId);
    return hit.length ? hit.reduce((acc, c) => without(acc, c.id), prev) : prev;
  });
}

/** The highest `pin:likes` version seen per pin, per store: instances may deliver counts out of order. */
const likesVersions = new WeakMap<Store, Map<number, number>>();

/** True when `version` of a pin's count is older than one already applied (and is then ignored). */
function isOlderLikes(store: Store, pinId: number, version: number): boolean {
  let versions = likesVersions.get(store);
  if (!versions) likesVersions.set(store, (versions = new Map()));
  // The same version again is applied again: a replay after a screen's load must be able to
  // restore it over an older answer.
  if (version < (versions.get(pinId) ?? -Infinity)) return true;
  versions.set(pinId, version);
  return false;
}

/**
 * A pin's like count changed (favorite added or removed by anyone). A live `pin:likes` carries its
 * `version`: a count older than one already applied is ignored. A REST answer's count has none.
 */
export function setPinLikes(store: Store, pinId: number, likesCount: number, version?: number): void {
  if (version !== undefined && isOlderLikes(store, pinId, version)) return;
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
