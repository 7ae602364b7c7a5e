import { atom } from 'jotai';
import type { Favorite } from '../../contract/index.ts';
import { favoriteRefsAtom, sessionUserAtom } from './atoms.ts';
import { without } from './byId.ts';
import { LIST, updateList, withFirst } from './lists.ts';
import { recordPinFacts } from './pin-facts.ts';
import { setPinLikes } from './pins.ts';
import type { Store } from './store.ts';

/** pin id → favorite id, for the heart toggles. */
export const favoriteIdByPinAtom = atom((get) => {
  const out: Record<number, number> = {};
  for (const fav of Object.values(get(favoriteRefsAtom))) out[fav.pin_id] = fav.id;
  return out;
});

/** Stores favorites (a page, or one): one favorite per pin; what each shows is its pin's (./pins.ts). */
export function upsertFavorites(store: Store, favorites: readonly Favorite[]): void {
  if (!favorites.length) return;
  recordPinFacts(
    store,
    favorites.map((f) => ({ id: f.pin_id, title: f.title, image_url: f.image_url, image: f.image, likes_count: f.likes_count })),
  );
  store.set(favoriteRefsAtom, (prev) => {
    const next = { ...prev };
    const byPin = new Map(Object.values(prev).map((f) => [f.pin_id, f.id]));
    for (const { id, pin_id } of favorites) {
      // One favorite per pin: drop another id for the same pin, if any.
      const other = byPin.get(pin_id);
      if (other !== undefined && other !== id) delete next[other];
      byPin.set(pin_id, id);
      // The same reference is kept as it is (its view stays the same object).
      if (next[id]?.pin_id !== pin_id) next[id] = { id, pin_id };
    }
    return next;
  });
}

export function upsertFavorite(store: Store, favorite: Favorite): void {
  upsertFavorites(store, [favorite]);
}

/** A favorite just added (event or REST answer): stored, and first in the favorites list. */
export function addFavorite(store: Store, favorite: Favorite): void {
  upsertFavorite(store, favorite);
  const userId = store.get(sessionUserAtom)?.id;
  if (userId !== undefined) updateList(store, LIST.favorites(userId), (list) => withFirst(list, favorite.id));
}

/** Removes a favorite by its own id. Pass `likesCount` when the server told the new count. */
export function removeFavorite(store: Store, favoriteId: number, pinId?: number, likesCount?: number): void {
  const fav = store.get(favoriteRefsAtom)[favoriteId];
  store.set(favoriteRefsAtom, (prev) => without(prev, favoriteId));
  const targetPin = pinId ?? fav?.pin_id;
  if (targetPin !== undefined && likesCount !== undefined) setPinLikes(store, targetPin, likesCount);
}

/**
 * The newest page of favorites from the server (the hearts' view): stored, and any favorite this
 * tab holds within the range that page covers but that the page lacks is gone (removed elsewhere).
 * Favorites are listed newest first, so the range is "newer than the page's oldest", or all of
 * them when the page is the last.
 */
export function setNewestFavorites(store: Store, favorites: readonly Favorite[], nextCursor: string | null): void {
  const listed = new Set(favorites.map((f) => f.id));
  const oldest = Math.min(...favorites.map((f) => f.id));
  for (const fav of Object.values(store.get(favoriteRefsAtom))) {
    if (!listed.has(fav.id) && (nextCursor === null || fav.id > oldest)) removeFavorite(store, fav.id);
  }
  upsertFavorites(store, favorites);
}
