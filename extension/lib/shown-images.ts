// "Show the very bytes before the last click": the background fetches a picture once, for the
// picker's or the popup's preview, and keeps those bytes; the save then uploads exactly them. The
// preview names them by their SHA-256, so that when the kept copy is gone (the service worker was
// stopped between the preview and the click) a fresh fetch is uploaded only if it is the same
// bytes. Nothing the user has not seen is ever uploaded in their place.
import { toBase64 } from './base64.ts';
import { fetchImageBytes, type ImageBytes } from './image-bytes.ts';

/** What the page's picker or the popup shows: the bytes themselves, and their name. */
export interface Preview {
  /** SHA-256 of the bytes, hex. */
  digest: string;
  /** The bytes' MIME type, as the site declared it ('' if it did not). */
  type: string;
  base64: string;
}

/** Kept bytes, at most this many in all: the oldest go first. A save usually follows in seconds. */
const KEEP_BYTES = 120 * 1024 * 1024;

const kept = new Map<string, { digest: string; bytes: ImageBytes }>();

/** Kept per page origin and address: the fetch rule (cookies, private addresses) depends on both. */
function keyOf(src: string, pageUrl: string): string {
  let origin = 'null';
  try {
    origin = new URL(pageUrl).origin;
  } catch {
    // no page: its own key
  }
  return `${origin} ${src}`;
}

async function sha256(blob: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function keep(key: string, entry: { digest: string; bytes: ImageBytes }): void {
  kept.delete(key);
  kept.set(key, entry);
  let total = 0;
  for (const value of kept.values()) total += value.bytes.blob.size;
  for (const [oldKey, value] of kept) {
    if (total <= KEEP_BYTES || oldKey === key) break;
    kept.delete(oldKey);
    total -= value.bytes.blob.size;
  }
}

/** Fetches the picture (under the fetch rule), keeps its bytes, and returns them for the preview. */
export async function previewImage(src: string, pageUrl: string): Promise<{ preview: Preview } | { failed: string }> {
  const bytes = await fetchImageBytes(src, pageUrl);
  if ('failed' in bytes) return bytes;
  const digest = await sha256(bytes.blob);
  keep(keyOf(src, pageUrl), { digest, bytes });
  return { preview: { digest, type: bytes.blob.type, base64: toBase64(new Uint8Array(await bytes.blob.arrayBuffer())) } };
}

/**
 * The bytes the user was shown (`digest`), for the upload: the kept copy, else a fresh fetch if
 * it is byte for byte the same; otherwise why not (a sentence for the user).
 */
export async function shownBytes(src: string, pageUrl: string, digest: string): Promise<ImageBytes | { failed: string }> {
  const key = keyOf(src, pageUrl);
  const entry = kept.get(key);
  if (entry?.digest === digest) {
    kept.delete(key);
    return entry.bytes;
  }
  const again = await fetchImageBytes(src, pageUrl);
  if ('failed' in again) return { failed: `The picture cannot be read again (${again.failed}); open Save again.` };
  if ((await sha256(again.blob)) !== digest) return { failed: 'The picture changed since it was shown; open Save again to see it as it is now.' };
  return again;
}

/** Drops every kept copy (tests; a stopped service worker loses them too). */
export function forgetShownImages(): void {
  kept.clear();
}
