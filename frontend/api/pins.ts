import type { PinList } from '../../contract/index.ts';
import { call, createVia } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';
import type { PinVisibilityValue } from '../../contract/visibility.ts';

export interface PinPageParams extends PageParams {
  /** `shuffle` (with `seed`): the home order of one visit; `newest` (the default) otherwise. */
  order?: 'newest' | 'shuffle';
  seed?: number;
  /** One user's pins, newest first. */
  userId?: number;
  /** One tag's pins, newest first (the stored form, without `#`). */
  tag?: string;
}

/** GET /api/pins/: one page of pins. */
export async function fetchPinPage({ cursor, limit, order, seed, userId, tag }: PinPageParams = {}): Promise<PinList> {
  const page = await call('GET /api/pins/', { query: { order, seed, userId, tag, limit, cursor } });
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}

export function fetchPin(id: number) {
  return call('GET /api/pins/{id}', { params: { id } });
}

export function createPin(body: { title: string; imageUrl: string; description: string; sourceUrl?: string | null; boardId?: number; visibility?: PinVisibilityValue; altText?: string | null }) {
  return createVia('POST /api/pins/', { body });
}

/** SPEC's {title, description}; `imageUrl` replaces the image (the owner mending it); `altText` absent is left as it is, null removes it. */
export function updatePin(id: number, body: { title: string; description: string; imageUrl?: string; altText?: string | null }) {
  return call('PUT /api/pins/{id}', { params: { id }, body });
}

/** Who sees the pin (its owner only): the rest of it is left as it is. */
export function setPinVisibility(id: number, visibility: PinVisibilityValue) {
  return call('PUT /api/pins/{id}', { params: { id }, body: { visibility } });
}

/** GET /api/pins/{id}/image-status: where the owner's pin's image stands, and why an import failed. */
export function fetchImageStatus(id: number) {
  return call('GET /api/pins/{id}/image-status', { params: { id } });
}

export function deletePin(id: number, options: { keepalive?: boolean } = {}) {
  return call('DELETE /api/pins/{id}', { params: { id }, ...options });
}
