import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { addFavorite as addFavoriteCall, fetchFavoritePage, removeFavorite as removeFavoriteCall } from '../api/favorites.ts';
import { liveClientFor } from '../live/client.ts';
import { loadIntoStore } from '../state/load-guard.ts';
import { favoritesLoadedAtom, sessionUserAtom } from '../state/atoms.ts';
import { addFavorite, favoriteIdByPinAtom, removeFavorite, setNewestFavorites } from '../state/favorites.ts';
import type { Store } from '../state/store.ts';

/**
 * The hearts' knowledge of the user's favorites: the newest page of them, and every favorite added
 * or removed since (live, and by this tab). A favorite older than that page shows an empty heart
 * until the server says "Already favorited".
 */
export function loadHeartFavorites(store: Store, userId: number): Promise<void> {
  return loadIntoStore(store, async () => {
    const page = await fetchFavoritePage();
    if (store.get(sessionUserAtom)?.id !== userId) return;
    setNewestFavorites(store, page.pins, page.nextCursor);
    store.set(favoritesLoadedAtom, true);
  });
}

/** Loads the hearts' favorites once per signed-in user (the layout calls it), again after a reconnect. */
export function useHeartFavorites(userId: number | undefined): void {
  const store = useStore();
  useEffect(() => {
    if (userId === undefined || store.get(favoritesLoadedAtom)) return;
    loadHeartFavorites(store, userId).catch((error: unknown) => console.error(error));
  }, [store, userId]);
  const client = liveClientFor(store);
  useEffect(() => {
    if (userId === undefined || !client) return;
    return client.refreshOnReconnect(() => loadHeartFavorites(store, userId));
  }, [client, store, userId]);
}

type ToggleResult = 'added' | 'removed' | 'unchanged';

/** Favorites the pin again (Undo of a removal); "Already favorited" counts as done. */
export async function refavorite(store: Store, pinId: number): Promise<void> {
  const result = await addFavoriteCall(pinId);
  if (result.kind === 'added') addFavorite(store, result.favorite);
  else if (result.kind === 'unknown') throw new Error('Failed to favorite pin');
}

/** Favorite state of one pin for the signed-in user, and the toggle every heart uses. */
export function useFavoriteToggle(pinId: number) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const favoriteId = useAtomValue(favoriteIdByPinAtom)[pinId];
  const [busy, setBusy] = useState(false);

  async function toggle(): Promise<ToggleResult> {
    if (!user || busy) return 'unchanged';
    setBusy(true);
    try {
      if (favoriteId !== undefined) {
        const removed = await removeFavoriteCall(favoriteId);
        removeFavorite(store, favoriteId, removed.pin_id, removed.likes_count);
        return 'removed';
      }
      const result = await addFavoriteCall(pinId);
      if (result.kind === 'added') {
        addFavorite(store, result.favorite);
        return 'added';
      }
      // "Already favorited" is no change (docs/product.md §4); anything else is logged (docs/product.md §8).
      if (result.kind === 'unknown') console.error('Failed to favorite pin');
      return 'unchanged';
    } catch (error) {
      console.error('Failed to favorite pin', error);
      // Our copy may be out of date (e.g. changed in another tab): take the server's newest page.
      if (user) loadHeartFavorites(store, user.id).catch(() => undefined);
      return 'unchanged';
    } finally {
      setBusy(false);
    }
  }

  return { signedIn: user !== null, favorited: favoriteId !== undefined, busy, toggle };
}
