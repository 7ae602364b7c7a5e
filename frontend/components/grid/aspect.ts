// Grid cards keep a fixed image box, so a card's height is known before its image loads and the
// masonry does not jump as images arrive. A pin with a stored image (`image: {width, height}`,
// DESIGN §10) gets its image's own shape, within bounds that keep the columns readable; one without
// (a remote image not imported yet) gets the default box. The image fills its box (object-fit: cover).

/** The box of a card whose image size is unknown (width / height: a little taller than wide). */
export const DEFAULT_ASPECT = 4 / 5;
const TALLEST = 1 / 2.5;
const WIDEST = 2;

/** Width / height of a card's image box: the image's own, when the item carries it. */
export function cardAspect(item: object): number {
  const image = (item as { image?: unknown }).image;
  if (!image || typeof image !== 'object') return DEFAULT_ASPECT;
  const { width, height } = image as { width?: unknown; height?: unknown };
  if (typeof width !== 'number' || typeof height !== 'number' || !(width > 0) || !(height > 0)) return DEFAULT_ASPECT;
  return Math.min(WIDEST, Math.max(TALLEST, width / height));
}
