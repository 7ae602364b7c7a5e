import type { Favorite, FavoriteList, FavoriteRemoved } from '../../contract/index.ts';
import { api } from './client.ts';
import { nextCursorOf, withQuery, type PageParams } from './paging.ts';

/** GET /api/favorites/: one page of the signed-in user's favorites, newest first. */
export async function fetchFavoritePage({ cursor, limit }: PageParams = {}): Promise<FavoriteList> {
  const page = await api<FavoriteList>('GET', withQuery('/api/favorites/', { limit, cursor }));
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}

type FavoriteResult =
  | { kind: 'added'; favorite: Favorite }
  | { kind: 'already' }
  | { kind: 'unknown'; raw: unknown };

/** POST /api/favorites/: a favorite, or {message: "Already favorited"} (no change). */
export async function addFavorite(pinId: number): Promise<FavoriteResult> {
  const raw = await api<unknown>('POST', '/api/favorites/', { pin_id: pinId });
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    if (typeof r.id === 'number' && typeof r.pin_id === 'number') return { kind: 'added', favorite: raw as Favorite };
    if (r.message === 'Already favorited') return { kind: 'already' };
  }
  return { kind: 'unknown', raw };
}

/** The id is the favorite's id, not the pin's (SPEC §7). */
export function removeFavorite(favoriteId: number): Promise<FavoriteRemoved> {
  return api<FavoriteRemoved>('DELETE', `/api/favorites/${favoriteId}`);
}
