import type { PageImages } from '../../contract/pages.ts';
import { call } from './endpoint.ts';

// The pictures of a web page (docs/page-images.md), for the pin builder's picker.

/**
 * GET /api/pages/images?url=: the page's pictures, best first (at most 50), or the address itself
 * when it is an image. Rejects with ApiError: 400 for an address the server will not read, 422
 * when the page cannot be reached.
 */
export function fetchPageImages(url: string): Promise<PageImages> {
  return call('GET /api/pages/images', { query: { url } });
}
