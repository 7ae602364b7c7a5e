import type { ColorName, PinList, SearchResult } from '../../contract/index.ts';
import { call } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** What a search asks: words (may be empty with colours), colours a pin must all have, a scope. */
export interface SearchRequest {
  q: string;
  colors?: ColorName[];
  scope?: string | null;
}

/**
 * GET /api/search: one page of the matching pins, best first. Colours alone are asked as
 * `q=color:NAME …` (q is required): their pins, newest first.
 */
export async function fetchSearchPage({ q, colors = [], scope = null }: SearchRequest, { cursor, limit }: PageParams = {}): Promise<SearchResult> {
  const query = q ? { q, color: colors.length ? colors.join(',') : undefined } : { q: colors.map((color) => `color:${color}`).join(' ') };
  const page = await call('GET /api/search', { query: { ...query, scope: scope ?? undefined, limit, cursor } });
  return { pins: page.pins, nextCursor: nextCursorOf(page), widened: page.widened === true };
}

/** GET /api/search/suggest?q=: tags, users and colours for the word being typed. */
export function fetchSuggestions(q: string) {
  return call('GET /api/search/suggest', { query: { q } });
}

/** GET /api/pins/{id}/related: one page of "More like this". */
export async function fetchRelatedPage(pinId: number, { cursor, limit }: PageParams = {}): Promise<PinList> {
  const page = await call('GET /api/pins/{id}/related', { params: { id: pinId }, query: { limit, cursor } });
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}
