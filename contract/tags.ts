import { z } from 'zod';
import { normalizeTag, TAG_LIMITS, tagPieces } from './tag-rules.ts';

// A pin's tags, as the server stores them, and the `tag` query parameter (docs/search.md); what a
// tag is, the client's links included, is tag-rules.ts.

/** A description's tags: each once, in the order they first appear, at most TAG_LIMITS.perPin. */
export function parseTags(description: string): string[] {
  const tags = new Set<string>();
  for (const piece of tagPieces(description)) {
    if (piece.tag !== undefined) tags.add(piece.tag);
    if (tags.size === TAG_LIMITS.perPin) break;
  }
  return [...tags];
}

export const TAG_MSG = {
  tagInvalid: `tag must be a tag without #: letters and digits, at most ${TAG_LIMITS.length}.`,
  tagWithOtherFilter: 'tag lists pins newest first; it cannot be combined with order=shuffle or userId.',
} as const;

/** A `tag` query parameter: any case, `#` optional, stored form out; anything else is 400. */
export const tagParam = z
  .string({ error: TAG_MSG.tagInvalid })
  .max(TAG_LIMITS.length * 4, { error: TAG_MSG.tagInvalid })
  .transform((value, ctx) => {
    const tag = normalizeTag(value.startsWith('#') ? value.slice(1) : value);
    if (tag === null) {
      ctx.addIssue({ code: 'custom', message: TAG_MSG.tagInvalid });
      return z.NEVER;
    }
    return tag;
  });
