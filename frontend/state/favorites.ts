import { atom } from 'jotai';
import type { Favorite } from '../../contract/index.ts';
import { favoritesByIdAtom, sessionUserAtom } from './atoms.ts';
import { without } from './byId.ts';
import { LIST, updateList, withFirst } from './lists.ts';
import { setPinLikes } from './pins.ts';
import type { Store } from './store.ts';

/** pin id → favorite id, for the heart toggles. */
export const favoriteIdByPinAtom = atom((get) => {
  const out: Record<number, number> = {};
  for (const fav of Object.values(get(favoritesByIdAtom))) out[fav.pin_id] = fav.id;
  return out;
});

/** Stores favorites (a page, or one): one favorite per pin, and like counts follow. */
export function upsertFavorites(store: Store, favorites: readonly Favorite[]): void {
  if (!favorites.length) return;
  store.set(favoritesByIdAtom, (prev) => {
    const next = { ...prev };
    const byPin = new Map(Object.values(prev).map((f) => [f.pin_id, f.id]));
    for (const favorite of favorites) {
      // One favorite per pin: drop another id for the same pin, if any.
      const other = byPin.get(favorite.pin_id);
      if (other !== undefined && other !== favorite.id) delete next[other];
      byPin.set(favorite.pin_id, favorite.id);
      next[favorite.id] = favorite;
    }
    return next;
  });
  for (const favorite of favorites) setPinLikes(store, favorite.pin_id, favorite.likes_count);
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
  const fav = store.get(favoritesByIdAtom)[favoriteId];
  store.set(favoritesByIdAtom, (prev) => without(prev, favoriteId));
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
  for (const fav of Object.values(store.get(favoritesByIdAtom))) {
    if (!listed.has(fav.id) && (nextCursor === null || fav.id > oldest)) removeFavorite(store, fav.id);
  }
  upsertFavorites(store, favorites);
}
