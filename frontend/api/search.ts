import type { PinList } from '../../contract/index.ts';
import { call } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** GET /api/search?q=: one page of the pins matching `q`, best first. */
export async function fetchSearchPage(q: string, { cursor, limit }: PageParams = {}): Promise<PinList> {
  const page = await call('GET /api/search', { query: { q, limit, cursor } });
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}

/** GET /api/search/suggest?q=: tags and users for the word being typed. */
export function fetchSuggestions(q: string) {
  return call('GET /api/search/suggest', { query: { q } });
}

/** GET /api/pins/{id}/related: one page of "More like this". */
export async function fetchRelatedPage(pinId: number, { cursor, limit }: PageParams = {}): Promise<PinList> {
  const page = await call('GET /api/pins/{id}/related', { params: { id: pinId }, query: { limit, cursor } });
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}
