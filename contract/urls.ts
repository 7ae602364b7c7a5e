// Plain functions (no zod) so the client can import them without pulling the schemas into its bundle.

const SAME_SITE_BASE = 'http://same-site.invalid';

/**
 * True for absolute http(s) URLs and paths on this site ("/seed-images/a.svg"). Paths are resolved
 * the way a browser would (which drops tabs and newlines, so "/\t/evil.com" means "//evil.com") and
 * must stay on this site.
 */
export function isAllowedImageUrl(value: string): boolean {
  // Control characters and spaces never belong in an image address.
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  try {
    if (value.startsWith('/')) return new URL(value, SAME_SITE_BASE).origin === SAME_SITE_BASE;
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Postgres text cannot hold U+0000; refuse it up front instead of failing in the database. */
export function hasNulCharacter(value: string): boolean {
  return value.includes('\u0000');
}
