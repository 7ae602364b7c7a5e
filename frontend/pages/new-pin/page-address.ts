/**
 * The address typed into "Website address" as the server is asked about it: trimmed, and given
 * `https://` when it names no scheme (a phone's keyboard makes "example.com/page" the easy thing to
 * type). Anything else is left for the server to judge, in its own words (docs/page-images.md).
 */
export function pageAddress(typed: string): string {
  const address = typed.trim();
  // A scheme ("http:", "ftp:") is kept; "example.com:8080" names a port, not a scheme.
  if (!address || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(address)) return address;
  return `https://${address.replace(/^\/+/, '')}`;
}
