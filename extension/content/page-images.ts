// The page's images for the popup: each picture once, as the browser shows it (or a larger file
// of the same picture from the same origin), largest first. Icons and tracking pixels are left out.
import type { ImageList, PageImage } from '../lib/messages.ts';

/** Smaller than this on either side is an icon, a spacer or a tracking pixel, not a picture. */
export const LIST_MIN_PX = 100;

function originOf(url: string): string {
  try {
    return new URL(url, document.baseURI).origin;
  } catch {
    return 'null';
  }
}

/**
 * The picture to save: the candidate the browser shows (`currentSrc`; the `src` attribute before
 * it has loaded), or a wider `srcset` candidate of the same origin as that one. A candidate of
 * another origin is never taken: the page chooses what its srcset names, and a candidate the
 * browser does not show is one the user never saw (docs/extension.md, "Which picture…").
 */
export function bestSource(image: HTMLImageElement): string {
  const shown = image.currentSrc || image.src;
  const origin = originOf(shown);
  // Opaque origins (data:, blob:) are never the same as anything.
  if (!shown || origin === 'null') return shown;
  let best = shown;
  let bestWidth = 0;
  for (const candidate of (image.srcset || '').split(/,\s+/)) {
    const [url, descriptor] = candidate.trim().split(/\s+/);
    const width = descriptor?.endsWith('w') ? Number.parseInt(descriptor, 10) : 0;
    if (!url || width <= bestWidth) continue;
    try {
      const absolute = new URL(url, document.baseURI);
      if (absolute.origin !== origin) continue;
      best = absolute.href;
      bestWidth = width;
    } catch {
      // a malformed candidate: keep the one the browser chose
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
