import type { PinList, Suggestions } from '../../contract/index.ts';
import { api } from './client.ts';
import { nextCursorOf, withQuery, type PageParams } from './paging.ts';

/** GET /api/search?q=: one page of the pins matching `q`, best first. */
export async function fetchSearchPage(q: string, { cursor, limit }: PageParams = {}): Promise<PinList> {
  const page = await api<PinList>('GET', withQuery('/api/search', { q, limit, cursor }));
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}

/** GET /api/search/suggest?q=: tags and users for the word being typed. */
export function fetchSuggestions(q: string): Promise<Suggestions> {
  return api<Suggestions>('GET', withQuery('/api/search/suggest', { q }));
}

/** GET /api/pins/{id}/related: one page of "More like this". */
export async function fetchRelatedPage(pinId: number, { cursor, limit }: PageParams = {}): Promise<PinList> {
  const page = await api<PinList>('GET', withQuery(`/api/pins/${pinId}/related`, { limit, cursor }));
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}
