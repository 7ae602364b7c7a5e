// The bookmarklet (docs/tokens-and-capture.md): one `javascript:` expression that reads the page and
// opens this site's pin builder in a new window. It injects nothing (no script, style or frame), so
// a page's Content-Security-Policy cannot stop it: the browser runs what the user clicked and would
// only refuse what it tried to load.

/**
 * What runs on the page, as a function so it is type-checked; `origin` is filled in. Written for
 * old engines too (no optional chaining): it runs in whatever page the user is on.
 */
function saveThisPage(origin: string): void {
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
  window.open(`${origin}/pin-builder?${query.toString()}`, '_blank', 'noopener,width=780,height=760');
}

/** The bookmark's address for this site's origin. */
export function bookmarkletHref(origin: string): string {
  return `javascript:(${saveThisPage.toString()})(${JSON.stringify(origin)});void 0`;
}
