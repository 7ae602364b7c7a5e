// The page's side of a file shared to the installed app: the service worker keeps it in Cache
// Storage (frontend/sw/share-target.ts) until the pin builder has uploaded it.
import { SHARED_FILE_CACHE, SHARED_FILE_NAME_HEADER, sharedFileKey } from '../../sw/cache-names.ts';

/** The shared file the worker kept under `id`; null when it is gone (the store cleared, another share since). */
export async function readSharedFile(id: string): Promise<File | null> {
  if (typeof caches === 'undefined') return null;
  try {
    const found = await (await caches.open(SHARED_FILE_CACHE)).match(sharedFileKey(id));
    if (!found) return null;
    const name = decodeURIComponent(found.headers.get(SHARED_FILE_NAME_HEADER) ?? '') || 'shared-picture';
    const blob = await found.blob();
    return new File([blob], name, { type: blob.type || (found.headers.get('Content-Type') ?? '') });
  } catch {
    return null;
  }
}

/** Drops the shared file once it is uploaded: the pin builder's address names the upload from then on. */
export async function forgetSharedFile(id: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  await (await caches.open(SHARED_FILE_CACHE)).delete(sharedFileKey(id)).catch(() => false);
}
