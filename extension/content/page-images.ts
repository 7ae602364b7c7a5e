// The page's images for the popup: each picture once, at the best resolution the page offers
// (the widest `srcset` candidate), largest first. Icons and tracking pixels are left out.
import type { ImageList, PageImage } from '../lib/messages.ts';

/** Smaller than this on either side is an icon, a spacer or a tracking pixel, not a picture. */
export const LIST_MIN_PX = 100;

/** The widest candidate of a `srcset` with width descriptors, else the one the browser chose. */
export function bestSource(image: HTMLImageElement): string {
  let best = image.currentSrc || image.src;
  let bestWidth = 0;
  for (const candidate of (image.srcset || '').split(/,\s+/)) {
    const [url, descriptor] = candidate.trim().split(/\s+/);
    const width = descriptor?.endsWith('w') ? Number.parseInt(descriptor, 10) : 0;
    if (url && width > bestWidth) {
      try {
        best = new URL(url, document.baseURI).href;
        bestWidth = width;
      } catch {
        // a malformed candidate: keep the one the browser chose
      }
    }
  }
  return best;
}

export function listImages(): ImageList {
  const found = new Map<string, PageImage>();
  for (const image of Array.from(document.images)) {
    const src = bestSource(image);
    if (!src || src.startsWith('blob:')) continue;
    // The file's own size once loaded; a lazy image not loaded yet has only its box.
    const width = image.naturalWidth || image.width;
    const height = image.naturalHeight || image.height;
    if (width < LIST_MIN_PX || height < LIST_MIN_PX) continue;
    const known = found.get(src);
    if (known && known.width * known.height >= width * height) continue;
    found.set(src, { src, alt: (image.alt || image.title || '').trim(), width, height });
  }
  const images = [...found.values()].sort((a, b) => b.width * b.height - a.width * a.height);
  return { page: { url: location.href, title: document.title }, images };
}
