import { createHash } from 'node:crypto';
import { z } from 'zod';
import { LIMITS } from '../../contract/limits.ts';
import { normalizeSourceUrl } from '../../contract/source-url-rules.ts';
import { parseTags } from '../../contract/tags.ts';
import { normalizeTag, TAG_LIMITS } from '../../contract/tag-rules.ts';
import { visibleText } from '../../contract/visible-text.ts';
import { PIN_VISIBILITIES } from '../../contract/visibility.ts';

// What one item of an import is, whatever file it came from: a pin to make (docs/import-export.md).
// The parsers (netscape.ts, images-zip.ts, pinboard-file.ts) make these; the job (run-import.ts)
// turns each into a pin. Kept in import_items.data as JSON, read back through the schema.

export const ItemData = z.object({
  /** The item's identity among everything its user has imported: the same item imported twice is one pin. */
  key: z.string().min(1).max(200),
  /** How failures name it: its title, or its address or file name. */
  label: z.string(),
  title: z.string(),
  description: z.string(),
  sourceUrl: z.string().nullable(),
  /**
   * A remote address to fetch, a page whose picture is taken (a bookmark without IMAGE:
   * docs/page-images.md), a file of the import's extracted entries, an address the pin takes as a
   * pin made by URL does (an export's pin whose picture never arrived: it is imported later, or
   * kept refused for its owner, as it was), or none (a failure: "no image").
   */
  image: z.union([z.object({ url: z.string() }), z.object({ page: z.string() }), z.object({ file: z.string() }), z.object({ address: z.string() }), z.null()]),
  /** Boards (by name) the pin goes in, in the file's order (a Pinboard export places its pins at the end instead). */
  boards: z.array(z.string()),
  createdAt: z.string().nullable(),
  /** A Pinboard export's key for the pin: its boards, favorites and comments name it. */
  ref: z.string().optional(),
  /** Who sees the pin, when the file says (a Pinboard export); else as for any pin (import-item.ts). */
  visibility: z.enum(PIN_VISIBILITIES).optional(),
});
export type ItemData = z.infer<typeof ItemData>;

// An import's text was typed into no form of ours, yet others read it (a shared board's invitees):
// it is made into what the API would take from the form, by the API's own rule of what a name may
// not hold (contract/visible-text.ts). Empty when nothing visible is left.

/** Text of several lines (a description, a comment) as a pin field takes it, cut to `max`. */
export function clip(text: string, max: number): string {
  return visibleText(text, max, 'lines');
}

/** A title from text: one line, cut to the title limit. */
export function titleOf(text: string): string {
  return visibleText(text, LIMITS.title);
}

export function descriptionOf(text: string): string {
  return clip(text, LIMITS.description);
}

/** A board's name from text, as POST /api/boards would take it (BoardBody). */
export function boardNameOf(text: string): string {
  return visibleText(text, LIMITS.boardName);
}

/** The page a pin came from, normalised as POST /api/pins/ would, or null. */
export function sourceOf(value: string | undefined): string | null {
  return value ? normalizeSourceUrl(value.trim()) : null;
}

/** An item key from the parts that make an item itself (hashed: keys stay short whatever the parts). */
export function itemKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\u0000')).digest('base64url')}`;
}

/** A creation time from seconds since 1970 (ADD_DATE), or null when it is none or not believable. */
export function timeFromSeconds(value: string | undefined): string | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const ms = Number(value) * 1000;
  // Before the web, or more than a day ahead: not a date anybody saved a bookmark on.
  if (ms < Date.UTC(1990, 0, 1) || ms > Date.now() + 86_400_000) return null;
  return new Date(ms).toISOString();
}

/**
 * A description with tags given apart from it (a TAGS attribute, an export's `tags`) written in as
 * #words, so that the pin's tags, parsed from its description like any pin's (contract/tags.ts),
 * include them: each in its stored form, none the description already has, and none past the
 * tags a pin keeps (TAG_LIMITS.perPin). What the tag rule does not take ("c++", "2024") is left out.
 */
export function withTags(description: string, tags: readonly string[]): string {
  const have = parseTags(description);
  const seen = new Set(have);
  const missing: string[] = [];
  for (const raw of tags) {
    const tag = normalizeTag(raw.replace(/^#/, ''));
    if (tag === null || seen.has(tag)) continue;
    seen.add(tag);
    missing.push(tag);
  }
  const added = missing.slice(0, Math.max(0, TAG_LIMITS.perPin - have.length));
  return added.length ? `${description}${description ? '\n' : ''}${added.map((tag) => `#${tag}`).join(' ')}` : description;
}
