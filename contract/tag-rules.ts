// Tags are the #words of a pin's description (docs/search.md). The server parses them when a pin
// is written and stores them with it (tags.ts); the client uses the same rules to turn them into
// links. No zod here: the web client imports these, and zod would weigh on its first script.

export const TAG_LIMITS = {
  /** Longest tag, in characters (after normalising): a longer #run is not a tag. */
  length: 50,
  /** Tags a pin keeps: the first ones in the description. */
  perPin: 20,
} as const;

// A tag is `#` and a run of Unicode letters (with their combining marks) and digits, not glued to
// a word, an entity or an address before it ("C#", "&#38;", "example.com/#top" hold none).
const TAG = /(?<![\p{L}\p{M}\p{N}&#/])#([\p{L}\p{M}\p{N}]+)/gu;
const TAG_TEXT = /^[\p{L}\p{M}\p{N}]+$/u;
const LETTER = /\p{L}/u;

/**
 * The stored form of a tag: NFKC (fullwidth and compatibility forms fold), lower-cased. Null when
 * it is not one: empty, too long, other characters, or digits only ("#1" is a rank, not a topic).
 */
export function normalizeTag(raw: string): string | null {
  const tag = raw.normalize('NFKC').toLowerCase();
  if (!TAG_TEXT.test(tag) || !LETTER.test(tag) || [...tag].length > TAG_LIMITS.length) return null;
  return tag;
}

/** A piece of text: plain, or a #tag with its stored form. */
export interface TextPiece {
  text: string;
  tag?: string;
}

/** The text cut into plain pieces and tags, in order; joined back, the pieces are the text. */
export function tagPieces(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(TAG)) {
    const tag = normalizeTag(match[1] ?? '');
    if (tag === null) continue;
    if (match.index > at) pieces.push({ text: text.slice(at, match.index) });
    pieces.push({ text: match[0], tag });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
