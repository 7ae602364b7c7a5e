// Plain functions (no zod, no tables) so the client can import them too. The confusable skeleton
// that catches look-alike names lives on the server (backend/auth/usernames.ts): its table is too
// large for the client bundle.

/**
 * The form a username is checked and stored in: NFKC folds compatibility characters into their
 * plain form (fullwidth "ｄｅｍｏ" → "demo", "ﬁ" → "fi"), so two names that only differ there are
 * one name; surrounding spaces are dropped.
 */
export function normalizeUsername(value: string): string {
  return value.normalize('NFKC').trim();
}

// Characters that show nothing, or change the order of what is shown: controls, format characters
// (bidi controls such as U+202E, zero-width space and joiners, BOM, soft hyphen, word joiner), line
// and paragraph separators, and the other default-ignorable code points (Hangul fillers, variation
// selectors), which fonts draw as nothing.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
// Letters, combining marks, digits and other numbers, and three separators. No spaces, no symbols;
// a lone surrogate is no letter either.
const ALLOWED = /^[\p{L}\p{M}\p{N}_.-]+$/u;
// A leading mark would sit on whatever is shown before the name; a leading separator makes names
// such as "." or "-" that barely show.
const STARTS_WELL = /^[\p{L}\p{N}]/u;
// The alphabets whose letters are most often identical in shape (Latin a/Cyrillic а/Greek α…).
// Mixing them inside one name has no honest use; other scripts mix legitimately (Japanese with
// Latin) and are left to the skeleton check.
const LOOK_ALIKE_ALPHABETS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];

export type UsernameProblem = 'invisible' | 'characters' | 'start' | 'mixedScripts';

/**
 * The first rule a (normalised) username breaks, if any. The empty string breaks none here: being
 * required and its length are separate rules with their own messages.
 */
export function usernameProblem(value: string): UsernameProblem | undefined {
  if (value === '') return undefined;
  if (INVISIBLE.test(value)) return 'invisible';
  if (!ALLOWED.test(value)) return 'characters';
  if (!STARTS_WELL.test(value)) return 'start';
  if (LOOK_ALIKE_ALPHABETS.filter((alphabet) => alphabet.test(value)).length > 1) return 'mixedScripts';
  return undefined;
}
