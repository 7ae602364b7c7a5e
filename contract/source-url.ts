import { z } from 'zod';

// The page a pin's image was saved from (docs/tokens-and-capture.md). Plain functions first, so the
// client can use them without the schemas.

export const SOURCE_URL_MAX = 2048;
export const SOURCE_URL_MSG = {
  invalid: 'Source URL must be an absolute http(s) address.',
  tooLong: `Source URL must be at most ${SOURCE_URL_MAX} characters.`,
} as const;

/**
 * The form a source page is stored and looked up in, or null when it is not one: an absolute
 * http(s) URL with a host and no user name or password, parsed as a browser parses it (host
 * lower-cased and punycoded, path percent-encoded) and without its fragment (`#…` names a place in
 * the same page). At most SOURCE_URL_MAX characters once normalised, so it is plain ASCII that fits
 * an index entry.
 */
export function normalizeSourceUrl(value: string): string | null {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f) return null;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username || url.password) return null;
  url.hash = '';
  return url.href.length <= SOURCE_URL_MAX ? url.href : null;
}

/** The host to show for a stored source ("Saved from example.com"), without a leading www. */
export function sourceHost(sourceUrl: string): string {
  try {
    return new URL(sourceUrl).hostname.replace(/^www\./, '');
  } catch {
    return sourceUrl;
  }
}

/** A source page, normalised; anything else (blank included) is an issue. */
function toSourceUrl(value: string, ctx: z.RefinementCtx): string {
  const normalized = normalizeSourceUrl(value);
  if (normalized !== null) return normalized;
  ctx.addIssue({ code: 'custom', message: SOURCE_URL_MSG.invalid });
  return z.NEVER;
}

const sourceText = () =>
  z.string({ error: SOURCE_URL_MSG.invalid }).trim().max(SOURCE_URL_MAX, { error: SOURCE_URL_MSG.tooLong, abort: true });

/** A required source page (GET /api/pins/lookup?sourceUrl=), normalised. */
export const sourceUrlField = sourceText().transform(toSourceUrl);

/** An optional source page (POST /api/pins/): absent, null or blank mean none. */
export const optionalSourceUrl = sourceText()
  .transform((value, ctx) => (value === '' ? null : toSourceUrl(value, ctx)))
  .nullish()
  .transform((value) => value ?? null);
