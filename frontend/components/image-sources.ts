// What the browser is given for a stored image (docs/images.md): its thumbnails as a `srcset`, and its
// thumbhash placeholder as a tiny PNG data URL shown until the thumbnail has loaded.
import { thumbHashToDataURL } from 'thumbhash';
import type { PinImage } from '../../contract/images.ts';

/**
 * The thumbnails as a `srcset`, each described by its real width: a thumbnail is never wider than
 * the original, so a 500 px image's "736" file is 500 px wide, and an image of 236 px or less has
 * one size only (two candidates of the same width would be an invalid srcset).
 */
export function thumbnailSrcSet(image: PinImage): string {
  const small = Math.min(236, image.width);
  const large = Math.min(736, image.width);
  if (large <= small) return `${image.thumbnails['236']} ${small}w`;
  return `${image.thumbnails['236']} ${small}w, ${image.thumbnails['736']} ${large}w`;
}

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
