// Grid cards keep a fixed image box, so a card's height is known before its image loads and the
// masonry does not jump as images arrive. A pin with a stored image (`image: {width, height}`)
// gets its image's own shape, within bounds that keep the columns readable; one without (a remote
// image not imported yet) gets the default box. The image fills its box (object-fit: cover): a very
// tall image loses some of its top and bottom, as on any pinning site. A very wide one is shown
// whole instead (a panorama cropped to 2:1 lost its ends): up to WIDEST it takes its own shape, and
// beyond it the image is fitted into a WIDEST box (cardFitsWhole).

/** The box of a card whose image size is unknown (width / height: a little taller than wide). */
export const DEFAULT_ASPECT = 4 / 5;
const TALLEST = 1 / 2.5;
const WIDEST = 4;

function ratioOf(item: object): number | null {
  const image = (item as { image?: unknown }).image;
  if (!image || typeof image !== 'object') return null;
  const { width, height } = image as { width?: unknown; height?: unknown };
  if (typeof width !== 'number' || typeof height !== 'number' || !(width > 0) || !(height > 0)) return null;
  return width / height;
}

/** Width / height of a card's image box: the image's own, when the item carries it. */
export function cardAspect(item: object): number {
  const ratio = ratioOf(item);
  return ratio === null ? DEFAULT_ASPECT : Math.min(WIDEST, Math.max(TALLEST, ratio));
}

/** True when the image is wider than any card box: it is fitted whole into its box, not cropped. */
export function cardFitsWhole(item: object): boolean {
  return (ratioOf(item) ?? 0) > WIDEST;
}
