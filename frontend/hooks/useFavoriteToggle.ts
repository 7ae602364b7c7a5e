import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { fetchFavoritePage } from '../api/favorites.ts';
import { liveClientFor } from '../live/client.ts';
import { loadIntoStore } from '../state/load-guard.ts';
import { favoritesLoadedAtom, sessionUserAtom } from '../state/atoms.ts';
import { favoriteIdByPinAtom, favoritePin, pendingHeartsAtom, setNewestFavorites, unfavoritePin } from '../state/favorites.ts';
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

/** Favorites the pin again (Undo of a removal); "Already favorited" counts as done, a refusal throws (the Undo says it failed). */
export async function refavorite(store: Store, pinId: number): Promise<void> {
  if ((await favoritePin(store, pinId)) === 'unchanged' && store.get(favoriteIdByPinAtom)[pinId] === undefined && !store.get(pendingHeartsAtom)[pinId]?.favorited) {
    throw new Error('Failed to favorite pin');
  }
}

/**
 * Favorite state of one pin for the signed-in user, and the toggle every heart uses. Writes go
 * through the outbox (docs/outbox.md): a favorite or unfavorite still waiting shows as done, marked
 * `waiting`; one the server refuses is undone, and its toast says so with Retry.
 */
export function useFavoriteToggle(pinId: number) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const favoriteId = useAtomValue(favoriteIdByPinAtom)[pinId];
  const pending = useAtomValue(pendingHeartsAtom)[pinId];
  const [busy, setBusy] = useState(false);
  const favorited = pending ? pending.favorited : favoriteId !== undefined;

  async function toggle(): Promise<ToggleResult> {
    if (!user || busy) return 'unchanged';
    setBusy(true);
    try {
      return favorited ? await unfavoritePin(store, pinId) : await favoritePin(store, pinId);
    } finally {
      setBusy(false);
    }
  }

  return { signedIn: user !== null, favorited, waiting: pending?.waiting ?? false, busy, toggle };
}
