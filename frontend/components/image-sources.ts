// A stored image's thumbhash placeholder as a tiny PNG data URL, shown until the thumbnail has
// loaded (docs/images.md); its thumbnails' srcset is contract/thumbnails.ts.
import { thumbHashToDataURL } from 'thumbhash';

function base64ToBytes(text: string): Uint8Array {
  // Standard base64, or its URL-safe form, with or without padding.
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

// A grid mounts and unmounts the same cards as it scrolls: decode each placeholder once. Bounded,
// oldest out first (a Map iterates in insertion order).
const decoded = new Map<string, string | null>();
const DECODED_MAX = 1000;
// A thumbhash is at least its 5-byte header.
const THUMBHASH_MIN_BYTES = 5;

/** The placeholder as a data URL, or null when it is missing or cannot be decoded. */
export function placeholderDataUrl(placeholder: string): string | null {
  const known = decoded.get(placeholder);
  if (known !== undefined) return known;
  let url: string | null = null;
  try {
    const bytes = base64ToBytes(placeholder);
    if (bytes.length >= THUMBHASH_MIN_BYTES) url = thumbHashToDataURL(bytes);
  } catch {
    url = null; // not base64, or not a thumbhash: the plain loading box instead
  }
  if (url !== null && !url.startsWith('data:image/png;base64,')) url = null;
  if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value as string);
  decoded.set(placeholder, url);
  return url;
}
