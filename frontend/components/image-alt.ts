// What a pin's picture says to someone who cannot see it (docs/product.md "Alt text"): the alt text
// its owner wrote, else the text recognised in the picture (its start), else the pin's title. One
// rule for every place a pin's picture is shown.

/** How much of the recognised text an `alt` carries: a screen reader reads all of it at once. */
export const RECOGNISED_TEXT_ALT_CHARS = 150;

export interface PictureWords {
  title: string;
  /** Absent where the answer does not carry it (a board's pins): then the next one is used. */
  alt_text?: string | null | undefined;
  image?: { text: string | null } | null | undefined;
}

export function imageAlt(pin: PictureWords): string {
  const own = pin.alt_text?.trim();
  if (own) return own;
  const text = pin.image?.text?.replace(/\s+/g, ' ').trim();
  if (text) return shorten(text, RECOGNISED_TEXT_ALT_CHARS);
  return pin.title;
}

/** The text cut to `max` characters at a word's end where there is one, with an ellipsis. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
