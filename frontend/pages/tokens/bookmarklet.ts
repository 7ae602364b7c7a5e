// The bookmarklet (docs/tokens-and-capture.md): one `javascript:` expression that reads the page and
// opens this site's pin builder in a new window. It injects nothing (no script, style or frame), so
// a page's Content-Security-Policy cannot stop it: the browser runs what the user clicked and would
// only refuse what it tried to load.

/**
 * What runs on the page, as a function so it is type-checked; its arguments are filled in. Written for
 * old engines too (no optional chaining): it runs in whatever page the user is on.
 */
function saveThisPage(origin: string, maxWidth: number, maxHeight: number): void {
  let best: HTMLImageElement | null = null;
  let bestArea = 0;
  const images = document.images;
  for (let i = 0; i < images.length; i++) {
    const image = images[i] as HTMLImageElement;
    const src = image.currentSrc || image.src;
    // Only images a pin can carry: data: and blob: addresses would be dropped by the builder anyway.
    if (!/^https?:/i.test(src)) continue;
    const area = image.width * image.height || image.naturalWidth * image.naturalHeight;
    if (area > bestArea) {
      best = image;
      bestArea = area;
    }
  }
  const query = new URLSearchParams();
  query.set('url', location.href);
  if (best) query.set('media', best.currentSrc || best.src);
  query.set('description', (best && best.alt) || document.title);
  // The builder's end screen closes this window by itself (window.opener is null with noopener).
  query.set('popup', '1');
  // Wide enough for the site's header and the builder's two columns (at 780 px the header overflowed),
  // but never wider or taller than the screen.
  const width = Math.min(maxWidth, screen.availWidth || maxWidth);
  const height = Math.min(maxHeight, screen.availHeight || maxHeight);
  window.open(`${origin}/pin-builder?${query.toString()}`, '_blank', `noopener,width=${width},height=${height}`);
}

/** The window the bookmarklet opens, at most: CSS pixels, the screen permitting. */
export const BOOKMARKLET_WINDOW = { width: 1000, height: 860 } as const;

/** The bookmark's address for this site's origin. */
export function bookmarkletHref(origin: string): string {
  const { width, height } = BOOKMARKLET_WINDOW;
  return `javascript:(${saveThisPage.toString()})(${JSON.stringify(origin)},${width},${height});void 0`;
}
