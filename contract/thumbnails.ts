// How a stored image's thumbnails are offered to a browser, for the client's <img> and for the
// server's preload of the home page's first images (backend/http/client-page.ts): one description,
// so the preloaded file is the one the grid then asks for. Plain values only (the client imports it).

/** What a thumbnail srcset needs of a stored image (contract/images.ts' PinImage). */
export interface ThumbnailSource {
  width: number;
  thumbnails: { '236': string; '736': string };
}

/**
 * The thumbnails as a `srcset`, each described by its real width: a thumbnail is never wider than
 * the original, so a 500 px image's "736" file is 500 px wide, and an image of 236 px or less has
 * one size only (two candidates of the same width would be an invalid srcset).
 */
export function thumbnailSrcSet(image: ThumbnailSource): string {
  const small = Math.min(236, image.width);
  const large = Math.min(736, image.width);
  if (large <= small) return `${image.thumbnails['236']} ${small}w`;
  return `${image.thumbnails['236']} ${small}w, ${image.thumbnails['736']} ${large}w`;
}

/**
 * A grid card's `sizes` before the grid has measured itself: its widest column (the grid never makes
 * one wider, frontend/components/grid/columns.ts). At the usual pixel ratios (1, 2, 3) it picks the
 * same file as the measured width does.
 */
export const GRID_CARD_SIZES = '236px';
