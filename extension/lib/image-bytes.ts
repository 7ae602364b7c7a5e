// The bytes of an image as the browser can get them: fetched from the extension (host permission
// for every http(s) site), so the server never has to fetch it again. A page chooses which
// addresses its images name, so the extension lends it no more than the page already has: the
// user's cookies go only to the tab's own origin, and a page on the public web never gets the
// extension to reach a private address (docs/extension.md, "Which picture, which cookies…").
import { IMAGE_LIMITS } from '../../contract/limits.ts';
import { isPublicHost } from './addresses.ts';

export interface ImageBytes {
  blob: Blob;
  fileName: string;
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/avif': 'avif' };

/** A file name for the upload: the URL's last path segment, else `image.<ext>` from the type. */
export function fileNameFor(src: string, type: string): string {
  let last: string;
  try {
    last = decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
  } catch {
    last = '';
  }
  const clean = last.replace(/[^\w.\- ]+/g, '').slice(-100);
  return /\.\w{2,5}$/.test(clean) ? clean : `image.${EXTENSIONS[type] ?? 'bin'}`;
}

function webUrl(address: string): URL | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export type FetchRule = { credentials: RequestCredentials } | { refused: string };

/**
 * How (whether) the extension may fetch `src` for the page at `pageUrl`:
 * - cookies (`include`) only for the page's own origin: same origin, not same site, because a
 *   registrable domain needs the Public Suffix List (attacker.github.io and you.github.io are
 *   one "site" to a naive rule) and a picture of another origin the page chose is the page's
 *   choice, not the user's: `omit` for everything else;
 * - never a private, loopback or intranet address when the page is public (a page that is itself
 *   on the intranet may show the intranet's pictures). A page that is no web page (none, `file:`,
 *   the browser's own) counts as public and has no origin to share cookies with.
 */
export function fetchRule(src: string, pageUrl: string): FetchRule {
  const image = webUrl(src);
  if (!image) return { credentials: 'omit' }; // data: (the caller refuses other schemes)
  const page = webUrl(pageUrl);
  if (!isPublicHost(image.hostname) && (!page || isPublicHost(page.hostname))) {
    return { refused: `${image.hostname} is a private address and the page is public` };
  }
  return { credentials: page && page.origin === image.origin ? 'include' : 'omit' };
}

/**
 * The image's bytes, or the reason they cannot be had (the caller then lets the server import the
 * image by its URL; its SSRF guard refuses what this refuses). `data:` URLs work too; `blob:` URLs
 * belong to the page.
 */
export async function fetchImageBytes(src: string, pageUrl: string, signal?: AbortSignal): Promise<ImageBytes | { failed: string }> {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { failed: 'not a URL' };
  }
  if (!['http:', 'https:', 'data:'].includes(url.protocol)) return { failed: `${url.protocol} URLs cannot be read` };
  const rule = fetchRule(src, pageUrl);
  if ('refused' in rule) return { failed: rule.refused };
  let response: Response;
  try {
    // `manual`: a redirect is not followed. The rule judged this address; a redirect could lead
    // to a private one, or carry the cookies on to another host. The server's import follows
    // redirects itself, each behind its SSRF guard and without cookies. `no-store`: an answer
    // fetched with cookies must not come back from the cache to a fetch without them.
    response = await fetch(url, { credentials: rule.credentials, redirect: 'manual', cache: 'no-store', signal: signal ?? null });
  } catch (error) {
    return { failed: error instanceof Error ? error.message : 'network error' };
  }
  if (response.type === 'opaqueredirect') return { failed: 'the address redirects elsewhere' };
  if (!response.ok) return { failed: `answered ${response.status}` };
  const declared = Number(response.headers.get('content-length'));
  if (declared > IMAGE_LIMITS.maxBytes) return { failed: 'larger than the upload limit' };
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // A page that answers with HTML (a sign-in page, say) is no image; an unnamed type may still be one.
  if (type && !type.startsWith('image/') && type !== 'application/octet-stream') return { failed: `not an image (${type})` };
  const blob = await response.blob();
  if (blob.size === 0) return { failed: 'empty' };
  if (blob.size > IMAGE_LIMITS.maxBytes) return { failed: 'larger than the upload limit' };
  return { blob, fileName: fileNameFor(src, type) };
}
