import { atom } from 'jotai';
import type { Favorite } from '../../contract/index.ts';
import { favoritesByIdAtom, favoritesLoadedAtom } from './atoms.ts';
import { toById, without } from './byId.ts';
import { setPinLikes } from './pins.ts';
import type { Store } from './store.ts';

/** The signed-in user's favorites, most recently added first. */
export const favoriteListAtom = atom((get) => Object.values(get(favoritesByIdAtom)).sort((a, b) => b.id - a.id));

/** pin id → favorite id, for the heart toggles. */
export const favoriteIdByPinAtom = atom((get) => {
  const out: Record<number, number> = {};
  for (const fav of Object.values(get(favoritesByIdAtom))) out[fav.pin_id] = fav.id;
  return out;
});

export function setAllFavorites(store: Store, favorites: readonly Favorite[]): void {
  store.set(favoritesByIdAtom, toById(favorites));
  store.set(favoritesLoadedAtom, true);
}

export function upsertFavorite(store: Store, favorite: Favorite): void {
  store.set(favoritesByIdAtom, (prev) => {
    // One favorite per pin: drop another id for the same pin, if any.
    let next = prev;
    for (const f of Object.values(prev)) if (f.pin_id === favorite.pin_id && f.id !== favorite.id) next = without(next, f.id);
    return { ...next, [favorite.id]: favorite };
  });
  setPinLikes(store, favorite.pin_id, favorite.likes_count);
}

/** Removes a favorite by its own id. Pass `likesCount` when the server told the new count. */
export function removeFavorite(store: Store, favoriteId: number, pinId?: number, likesCount?: number): void {
  const fav = store.get(favoritesByIdAtom)[favoriteId];
  store.set(favoritesByIdAtom, (prev) => without(prev, favoriteId));
  const targetPin = pinId ?? fav?.pin_id;
  if (targetPin !== undefined && likesCount !== undefined) setPinLikes(store, targetPin, likesCount);
}
