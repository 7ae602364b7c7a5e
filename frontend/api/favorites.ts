import type { Favorite, FavoriteList } from '../../contract/index.ts';
import { call } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** GET /api/favorites/: one page of the signed-in user's favorites, newest first. */
export async function fetchFavoritePage({ cursor, limit }: PageParams = {}): Promise<FavoriteList> {
  const page = await call('GET /api/favorites/', { query: { limit, cursor } });
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}

type FavoriteResult = { kind: 'added'; favorite: Favorite } | { kind: 'already' } | { kind: 'unknown'; raw: unknown };

/** POST /api/favorites/: a favorite, or {message: "Already favorited"} (no change). */
export async function addFavorite(pinId: number): Promise<FavoriteResult> {
  // Read as unknown: the answer is told apart by its fields, and any other shape is reported.
  const raw: unknown = await call('POST /api/favorites/', { body: { pin_id: pinId } });
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    if (typeof r.id === 'number' && typeof r.pin_id === 'number') return { kind: 'added', favorite: raw as Favorite };
    if (r.message === 'Already favorited') return { kind: 'already' };
  }
  return { kind: 'unknown', raw };
}

/** The id is the favorite's id, not the pin's (docs/product.md §7). */
export function removeFavorite(favoriteId: number) {
  return call('DELETE /api/favorites/{id}', { params: { id: favoriteId } });
}
