import type { ImageStatus } from '../../contract/image-repair.ts';
import type { Pin, PinDeleted, PinList } from '../../contract/index.ts';
import { api, createOnce } from './client.ts';
import { nextCursorOf, withQuery, type PageParams } from './paging.ts';

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
  const page = await api<PinList>('GET', withQuery('/api/pins/', { order, seed, userId, tag, limit, cursor }));
  return { pins: page.pins, nextCursor: nextCursorOf(page) };
}

export function fetchPin(id: number): Promise<Pin> {
  return api<Pin>('GET', `/api/pins/${id}`);
}

export function createPin(body: { title: string; imageUrl: string; description: string; sourceUrl?: string | null }): Promise<Pin> {
  return createOnce<Pin>('/api/pins/', body);
}

/** SPEC's {title, description}; `imageUrl` replaces the image (the owner mending it). */
export function updatePin(id: number, body: { title: string; description: string; imageUrl?: string }): Promise<Pin> {
  return api<Pin>('PUT', `/api/pins/${id}`, body);
}

/** GET /api/pins/{id}/image-status: where the owner's pin's image stands, and why an import failed. */
export function fetchImageStatus(id: number): Promise<ImageStatus> {
  return api<ImageStatus>('GET', `/api/pins/${id}/image-status`);
}

export function deletePin(id: number, options: { keepalive?: boolean } = {}): Promise<PinDeleted> {
  return api<PinDeleted>('DELETE', `/api/pins/${id}`, undefined, options);
}
