// The bytes of an image as the browser can get them: fetched from the extension (host permission
// for every http(s) site), with the user's cookies for that site, so an image behind a sign-in or
// hotlink protection comes as the page showed it. The server never has to fetch it again.
import { IMAGE_LIMITS } from '../../contract/limits.ts';

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

/**
 * The image's bytes, or null with the reason when they cannot be had (the caller then lets the
 * server import the image by its URL). `data:` URLs work too; `blob:` URLs belong to the page.
 */
export async function fetchImageBytes(src: string, signal?: AbortSignal): Promise<ImageBytes | { failed: string }> {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { failed: 'not a URL' };
  }
  if (!['http:', 'https:', 'data:'].includes(url.protocol)) return { failed: `${url.protocol} URLs cannot be read` };
  let response: Response;
  try {
    // `include`: the site's cookies go along (the extension has host permission for it), as they
    // did when the page loaded the image.
    response = await fetch(url, { credentials: 'include', cache: 'force-cache', signal: signal ?? null });
  } catch (error) {
    return { failed: error instanceof Error ? error.message : 'network error' };
  }
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
