// No zod here: the web client imports these, and zod would weigh on its first script
// (the schemas are in source-url.ts).

// The page a pin's image was saved from (docs/tokens-and-capture.md).

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
