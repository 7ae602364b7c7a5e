import type { Pin } from '../../contract/index.ts';
import { commentsByIdAtom, deletedPinIdsAtom, favoriteRefsAtom, pinsByIdAtom, pinSummariesByIdAtom } from './atoms.ts';
import { isStale, without } from './byId.ts';
import { dropPinFromBoards } from './boards.ts';
import { dropSummaries } from './pin-facts.ts';
import type { Store } from './store.ts';

/** Idempotent insert-or-update; an older copy (by updated_at) never overwrites a newer one. */
export function upsertPin(store: Store, pin: Pin): void {
  const current = store.get(pinsByIdAtom)[pin.id];
  if (isStale(current, pin)) return;
  store.set(pinsByIdAtom, (prev) => ({ ...prev, [pin.id]: pin }));
  dropSummaries(store, [pin.id]);
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
  dropSummaries(
    store,
    fresh.map((pin) => pin.id),
  );
}

/** Removes a pin everywhere it shows: pins, favorites, boards and its comments. Idempotent. */
export function removePin(store: Store, pinId: number): void {
  store.set(pinsByIdAtom, (prev) => without(prev, pinId));
  store.set(pinSummariesByIdAtom, (prev) => without(prev, pinId));
  store.set(favoriteRefsAtom, (prev) => {
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
  const summary = store.get(pinSummariesByIdAtom)[pinId];
  if (summary && summary.likes_count !== likesCount) {
    store.set(pinSummariesByIdAtom, (prev) => ({ ...prev, [pinId]: { ...summary, likes_count: likesCount } }));
  }
}
