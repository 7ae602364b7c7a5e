import unhomoglyph from 'unhomoglyph';
import { normalizeUsername } from '../contract/usernames.ts';

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Unicode TR39's confusable skeleton: NFD, drop default-ignorables, prototypes (confusables.txt), NFD. */
function skeleton(value: string): string {
  return unhomoglyph(value.normalize('NFD').replace(IGNORABLE, '')).normalize('NFD');
}

/**
 * The key that look-alike usernames share, stored in users.username_skeleton (unique). Usernames
 * are case-blind, so the key is too, and it takes the TR39 skeleton on both sides of lowercasing:
 * before, so that "Ieo" meets "leo" (capital I is drawn like l); after, so that "DEMO" meets "demo"
 * ("m" has the prototype "rn", "M" has none). "dеmo" (Cyrillic е), "dem0", "ｄｅｍｏ" and "dernо"
 * all meet "demo" too. Not meant to be shown.
 *
 * Changing this function changes the keys of existing users: it needs a migration that recomputes
 * the column (as 20261123_0004_username_skeleton does), or look-alikes of old names get through.
 */
export function usernameSkeleton(username: string): string {
  return skeleton(skeleton(normalizeUsername(username)).toLowerCase()).toLowerCase();
}
