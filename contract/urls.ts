// Plain functions (no zod) so the client can import them without pulling the schemas into its bundle.

const SAME_SITE_BASE = 'http://same-site.invalid';

/**
 * Where this site's own images live. A same-site image address must resolve inside one of these:
 * any other path could name an action (an `<img src="/api/...">` is a request sent with the
 * viewer's cookies), so it is refused however it is spelled.
 */
const IMAGE_PATH_PREFIXES = ['/seed-images/', '/media/'] as const;

// One or more plain segments after the prefix: unreserved characters only, so no percent-encoding
// (which could hide a slash or a dot segment from one parser and not another) and no segment
// starting with a dot ("." and ".." included).
const PLAIN_SEGMENTS = /^(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/** True when a normalised path (a URL's `pathname`) names a file where this site keeps images. */
function isImagePath(pathname: string): boolean {
  const prefix = IMAGE_PATH_PREFIXES.find((candidate) => pathname.startsWith(candidate));
  return prefix !== undefined && PLAIN_SEGMENTS.test(pathname.slice(prefix.length - 1));
}

/**
 * True when a path would reach this site's API or socket if the address were this site's: its
 * percent-encodings decoded, repeated slashes collapsed, case ignored (the router ignores it).
 * An undecodable path counts as reaching it.
 */
function reachesApi(pathname: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  path = path.replaceAll('\\', '/').replace(/\/+/g, '/').toLowerCase();
  return path.startsWith('/api') || path.startsWith('/socket.io');
}

/**
 * True for an image address a pin may carry: an absolute http(s) URL on another site, or an
 * address on this site that resolves where its images live (`isImagePath`). Both are parsed the
 * way a browser parses them (tabs and newlines dropped, backslashes read as slashes, dot segments
 * and `%2e` resolved), and only the result is judged. `ownHosts` are the host names (with port)
 * this site is reached under: an absolute URL naming one of them is same-site too.
 *
 * `allNamesKnown` false: `ownHosts` may miss names this site is reached under (the server's public
 * origins are not configured, and a request's own Host header is whatever its sender wrote), so
 * any address might be this site's; one whose path would reach this site's API is then refused
 * wherever it points. A forged Host can thus only add a name, never take the real one away.
 */
export function isAllowedImageUrl(value: string, ownHosts: readonly string[] = [], allNamesKnown = true): boolean {
  // Control characters and spaces never belong in an image address.
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  // A path ("/x", or the same with a backslash, which browsers read as a slash) is resolved against this site and must stay
  // on it ("//evil.com/x" does not); anything else must be a complete absolute URL.
  const isPath = value.startsWith('/') || value.startsWith('\\');
  let url: URL;
  try {
    url = isPath ? new URL(value, SAME_SITE_BASE) : new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isPath && url.origin !== SAME_SITE_BASE) return false;
  const sameSite = isPath || ownHosts.some((host) => host.toLowerCase() === url.host);
  if (!sameSite) return url.hostname !== '' && (allNamesKnown || !reachesApi(url.pathname));
  // A query or fragment has no business on a stored image; refusing them keeps the rule simple.
  return url.search === '' && url.hash === '' && !url.username && !url.password && isImagePath(url.pathname);
}

/** Postgres text cannot hold U+0000; refuse it up front instead of failing in the database. */
export function hasNulCharacter(value: string): boolean {
  return value.includes('\u0000');
}
