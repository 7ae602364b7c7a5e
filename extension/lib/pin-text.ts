// What a saved image's pin says: its title from the image's alt text, else the page's title, else
// the page's host; the page itself as the pin's source. Limits are the server's (contract/limits.ts).
import { LIMITS } from '../../contract/limits.ts';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export function pinTitle(alt: string, pageTitle: string, pageUrl: string): string {
  const chosen = oneLine(alt) || oneLine(pageTitle) || hostOf(pageUrl) || 'Saved image';
  return cut(chosen, LIMITS.title);
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * The page as a pin's source: http(s) only, without its #fragment (the same page), at most the
 * server's 2,048 characters (a longer address keeps its origin and path). Null for anything else
 * (a file:// page, the browser's own pages).
 */
export function sourceUrlOf(pageUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  if (url.href.length <= LIMITS.imageUrl) return url.href;
  const short = `${url.origin}${url.pathname}`;
  return short.length <= LIMITS.imageUrl ? short : url.origin;
}

/** An image address the server can import by URL itself (http or https, within its limit). */
export function importableUrl(src: string): boolean {
  return /^https?:\/\//i.test(src) && src.length <= LIMITS.imageUrl;
}
