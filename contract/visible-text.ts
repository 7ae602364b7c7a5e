// Plain functions (no zod) so the client can import them too. The one definition of the characters
// a name may not hold: the API refuses them (board names, usernames) and an import drops them from
// text nobody typed into the form (backend/imports/items.ts), so the two cannot drift apart.

// Characters that show nothing, or change the order of what is shown around them: controls,
// format characters (bidi overrides and isolates such as U+202E, zero-width space, BOM, soft
// hyphen, word joiner), line and paragraph separators, and the other default-ignorable code points
// (Hangul fillers, variation selectors, tag characters), which fonts draw as nothing. A name holding
// one reads differently from what it is: after U+202E the rest shows reversed, and "Photos" with a
// zero-width space looks like "Photos" without it. (Flags drawn from tag characters are refused too.)
const HIDDEN_CLASS = String.raw`[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]`;
const HIDDEN = new RegExp(HIDDEN_CLASS, 'u');

// Emoji spell themselves with two of those, which are therefore kept where they do that: U+FE0F
// ("draw as emoji") right after a character that has an emoji form (❤️, 1️⃣), and the zero-width
// joiner U+200D between two pictographs (👩‍💻, 🏳️‍🌈).
const EMOJI_GLUE = String.raw`(?<=\p{Emoji})\uFE0F|(?<=\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?)\u200D(?=\p{Extended_Pictographic})`;
const EMOJI_GLUES = new RegExp(EMOJI_GLUE, 'gu');

/**
 * True when `value` holds a character that shows nothing or reorders what is shown (see HIDDEN),
 * other than the joiners emoji need; with `{ emoji: false }` (names that take no emoji, such as
 * usernames), those joiners count too. Board names may hold spaces, punctuation and emoji but
 * nothing a reader cannot see.
 */
export function hasHiddenCharacters(value: string, options: { emoji?: boolean } = {}): boolean {
  return HIDDEN.test(options.emoji === false ? value : value.replace(EMOJI_GLUES, ''));
}

// Line breaks and tabs are hidden characters too, but they part words: they become a space (or,
// in text of several lines, a line break) rather than gluing the words on either side together.
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
// Each hidden character, an emoji's glue captured (it is kept). Glue joins two characters that are
// never hidden themselves, so it still joins them once the others are gone.
const HIDDEN_OR_GLUE = new RegExp(`(${EMOJI_GLUE})|${HIDDEN_CLASS}`, 'gu');
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` as a name the API takes (shape 'line': a board name, a pin title) or as text of several
 * lines (shape 'lines': a description, a comment): the hidden characters above dropped (emoji keep
 * their glue), tabs and line breaks read as spaces (or, in 'lines', as "\n"), runs of spaces folded
 * to one ('line' only), trimmed, and cut to `max` UTF-16 units, the measure the API's length rules
 * use, at a whole grapheme, so no emoji or accented letter is split. Empty when nothing shows: the
 * caller decides what that means (no board, "Untitled"). Cleaning the result again changes nothing.
 */
export function visibleText(text: string, max: number, shape: 'line' | 'lines' = 'line'): string {
  const lineBreak = shape === 'line' ? ' ' : '\n';
  let visible = text
    .replaceAll('\t', ' ')
    .replace(LINE_BREAK, lineBreak)
    .replace(HIDDEN_OR_GLUE, (found: string, glue: string | undefined) => glue ?? (found === '\n' ? lineBreak : ''));
  if (shape === 'line') visible = visible.replace(/\s+/g, ' ');
  let cut = '';
  for (const { segment } of GRAPHEMES.segment(visible.trim())) {
    if (cut.length + segment.length > max) break;
    cut += segment;
  }
  return cut.trim();
}
