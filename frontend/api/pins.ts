import type { Pin, PinDeleted, PinList } from '../../contract/index.ts';
import { api, createOnce } from './client.ts';

export async function fetchPins(): Promise<Pin[]> {
  return (await api<PinList>('GET', '/api/pins/')).pins;
}

export function fetchPin(id: number): Promise<Pin> {
  return api<Pin>('GET', `/api/pins/${id}`);
}

export function createPin(body: { title: string; imageUrl: string; description: string }): Promise<Pin> {
  return createOnce<Pin>('/api/pins/', body);
}

export function updatePin(id: number, body: { title: string; description: string }): Promise<Pin> {
  return api<Pin>('PUT', `/api/pins/${id}`, body);
}

export function deletePin(id: number): Promise<PinDeleted> {
  return api<PinDeleted>('DELETE', `/api/pins/${id}`);
}
