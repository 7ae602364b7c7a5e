import { IMAGE_LIMITS } from '../../contract/images.ts';
import type { PageImage } from '../../contract/pages.ts';
import { detectImageFormat } from '../images/detect.ts';
import { SafeFetchError, safeFetch } from '../images/safe-fetch.ts';
import { decodeHtml } from './charset.ts';
import { picturesOfHtml } from './html-pictures.ts';

// Reads a web page for its pictures (docs/page-images.md): GET /api/pages/images, and bookmark
// imports for a link without an IMAGE attribute. The page is fetched through the SSRF guard
// (safe-fetch.ts) with the picture fetches' allow-lists; at most 2 MB of its HTML is read, and the
// whole read takes at most 10 s. An address that answers a picture is that picture.

export { picturesOfHtml } from './html-pictures.ts';

export type PageRead =
  /** The address itself is a picture (bytes ≤ 20 MB = IMAGE_LIMITS.maxBytes). */
  | { kind: 'image'; url: string; bytes: Buffer }
  /** An HTML page (its pictures best first), or anything else (no pictures, no title). */
  | { kind: 'page'; url: string; title: string; images: PageImage[] };

export interface PageReadOptions {
  /** The fetches' allow-lists (FETCH_ALLOW_CIDRS / FETCH_ALLOW_PORTS): tests and special deployments only. */
  allow?: { cidrs?: string[]; ports?: number[] };
  /** How long the site may take to send its answer's headers (FETCH_HEADERS_TIMEOUT_SECONDS). */
  headersTimeoutMs?: number;
  signal?: AbortSignal;
}

/** The most of an HTML answer that is read; the rest of a longer page is not looked at. */
export const PAGE_HTML_MAX_BYTES = 2 * 1024 * 1024;
/** The whole read: lookups, connections, redirects and the body. */
export const PAGE_READ_TIMEOUT_MS = 10_000;
/** Pages often redirect more than an image does (http → https → www → a consent page's return). */
const PAGE_MAX_REDIRECTS = 5;
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,image/*;q=0.8,*/*;q=0.5';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** The media type of a Content-Type, lower-case, without parameters; null when absent. */
function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

/**
 * The byte cap by what the answer says it is: 2 MB of HTML (a longer page is cut there), a whole
 * picture up to 20 MB (a larger one fails), and for anything else 20 MB, cut there: its bytes may
 * still be a picture (an image server that says application/octet-stream), which is then judged
 * whole or refused as too large.
 */
function limitFor(contentType: string | null): { maxBytes: number; truncate?: boolean } {
  const type = mediaType(contentType);
  if (type !== null && HTML_TYPES.has(type)) return { maxBytes: PAGE_HTML_MAX_BYTES, truncate: true };
  if (type?.startsWith('image/')) return { maxBytes: IMAGE_LIMITS.maxBytes };
  return { maxBytes: IMAGE_LIMITS.maxBytes, truncate: true };
}

/** Bytes that start like an HTML document (for an answer that names no type). */
function looksLikeHtml(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 1024)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return /^<(!doctype html|html|head|body|meta|title|link|script|!--)/.test(head);
}

/** Reads the page at `url`. Throws SafeFetchError (from safe-fetch.ts) when the page cannot be fetched. */
export async function readPage(url: string, options: PageReadOptions): Promise<PageRead> {
  const fetched = await safeFetch(url, {
    maxBytes: IMAGE_LIMITS.maxBytes,
    limitFor,
    accept: ACCEPT,
    totalTimeoutMs: PAGE_READ_TIMEOUT_MS,
    maxRedirects: PAGE_MAX_REDIRECTS,
    ...(options.headersTimeoutMs !== undefined ? { headersTimeoutMs: options.headersTimeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.allow ? { allow: options.allow } : {}),
  });
  const { bytes, finalUrl } = fetched;
  const type = mediaType(fetched.contentType);
  const declaredHtml = type !== null && HTML_TYPES.has(type);
  if (!declaredHtml) {
    // An SVG is no picture a pin can store (scriptable): such an address has no pictures.
    const picture = (await detectImageFormat(bytes)) !== undefined || (type?.startsWith('image/') === true && !type.includes('svg'));
    if (picture) {
      if (fetched.truncated) throw new SafeFetchError('too_large', `the picture is over ${IMAGE_LIMITS.maxBytes} bytes`);
      return { kind: 'image', url: finalUrl, bytes };
    }
    if (type !== null || !looksLikeHtml(bytes)) return { kind: 'page', url: finalUrl, title: '', images: [] };
  }
  const { title, images } = picturesOfHtml(decodeHtml(bytes.subarray(0, PAGE_HTML_MAX_BYTES), fetched.contentType), finalUrl);
  return { kind: 'page', url: finalUrl, title, images };
}
