import { hasHiddenCharacters } from './visible-text.ts';

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
  // Characters that show nothing or reorder what is shown (contract/visible-text.ts), emoji joiners
  // included: a username takes no emoji.
  if (hasHiddenCharacters(value, { emoji: false })) return 'invisible';
  if (!ALLOWED.test(value)) return 'characters';
  if (!STARTS_WELL.test(value)) return 'start';
  if (LOOK_ALIKE_ALPHABETS.filter((alphabet) => alphabet.test(value)).length > 1) return 'mixedScripts';
  return undefined;
}
