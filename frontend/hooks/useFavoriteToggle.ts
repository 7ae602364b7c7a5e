import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { addFavorite, fetchFavorites, removeFavorite as removeFavoriteCall } from '../api/favorites.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { favoriteIdByPinAtom, removeFavorite, setAllFavorites, upsertFavorite } from '../state/favorites.ts';
import { loadWithLiveReplay } from '../live/client.ts';

type ToggleResult = 'added' | 'removed' | 'unchanged';

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
      const result = await addFavorite(pinId);
      if (result.kind === 'added') {
        upsertFavorite(store, result.favorite);
        return 'added';
      }
      // "Already favorited" is no change (SPEC §4); anything else is logged (SPEC §8).
      if (result.kind === 'unknown') console.error('Failed to favorite pin');
      return 'unchanged';
    } catch (error) {
      console.error('Failed to favorite pin', error);
      // Our copy may be out of date (e.g. changed in another tab): take the server's list.
      loadWithLiveReplay(store, async () => setAllFavorites(store, await fetchFavorites())).catch(() => undefined);
      return 'unchanged';
    } finally {
      setBusy(false);
    }
  }

  return { signedIn: user !== null, favorited: favoriteId !== undefined, busy, toggle };
}
