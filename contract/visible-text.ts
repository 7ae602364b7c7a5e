// Plain functions (no zod) so the client can import them too.

// Characters that show nothing, or change the order of what is shown around them: controls,
// format characters (bidi overrides and isolates such as U+202E, zero-width space, BOM, soft
// hyphen, word joiner), line and paragraph separators, and the other default-ignorable code points
// (Hangul fillers, variation selectors, tag characters), which fonts draw as nothing. A name holding
// one reads differently from what it is: after U+202E the rest shows reversed, and "Photos" with a
// zero-width space looks like "Photos" without it. (Flags drawn from tag characters are refused too.)
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

// Emoji spell themselves with two of those, which are therefore kept where they do that: U+FE0F
// ("draw as emoji") right after a character that has an emoji form (❤️, 1️⃣), and the zero-width
// joiner U+200D between two pictographs (👩‍💻, 🏳️‍🌈).
const EMOJI_GLUE = /(?<=\p{Emoji})\uFE0F|(?<=\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?)\u200D(?=\p{Extended_Pictographic})/gu;

/**
 * True when `value` holds a character that shows nothing or reorders what is shown (see HIDDEN),
 * other than the joiners emoji need. For display names such as board names, which may hold spaces,
 * punctuation and emoji but nothing a reader cannot see.
 */
export function hasHiddenCharacters(value: string): boolean {
  return HIDDEN.test(value.replace(EMOJI_GLUE, ''));
}
