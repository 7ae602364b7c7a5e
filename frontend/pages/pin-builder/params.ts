import { LIMITS } from '../../../contract/limits.ts';
import { normalizeSourceUrl, sourceHost } from '../../../contract/source-url-rules.ts';
import { isAllowedImageUrl } from '../../../contract/urls.ts';

/**
 * What /pin-builder?url=&media=&description= fills the New Pin form with; a share to the installed
 * app (docs/installable-app.md) comes as /pin-builder?title=&text=&url=&shared=.
 */
export interface BuilderPrefill {
  title: string;
  imageUrl: string;
  description: string;
  /** The page the image comes from, normalised; null when the link named none (or a bad one). */
  sourceUrl: string | null;
}

const TITLE_FROM_DESCRIPTION = 100;

/** Text as a form may hold it: no control characters but line breaks, at most `max` characters. */
function plainText(value: string, max: number): string {
  const kept = Array.from(value.replace(/\r\n?/g, '\n')).filter((char) => {
    const code = char.charCodeAt(0);
    return code === 10 || (code >= 32 && code !== 127);
  });
  return kept.join('').trim().slice(0, max);
}

/** The description's first line, cut at a word to at most 100 characters (with "…"). */
function titleFrom(description: string): string {
  const line = description.split('\n')[0]?.trim() ?? '';
  if (line.length <= TITLE_FROM_DESCRIPTION) return line;
  const cut = line.slice(0, TITLE_FROM_DESCRIPTION - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_FROM_DESCRIPTION / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The first http(s) address in a shared text (apps often share a page as "Some title https://…"). */
const LINK_IN_TEXT = /https?:\/\/[^\s<>"]+/i;

/**
 * A share's text without the page address it carried: the address is the pin's source, so the
 * description keeps the words around it.
 */
function sharedText(search: URLSearchParams): { text: string; link: string } {
  const text = search.get('text') ?? '';
  const link = LINK_IN_TEXT.exec(text)?.[0] ?? '';
  return { text: link ? text.replace(link, ' ').replace(/[ \t]+/g, ' ') : text, link };
}

/**
 * Reads the builder link (docs/tokens-and-capture.md) or a share (docs/installable-app.md). Every
 * value is judged before it is used: an image address a pin may not carry and a page that is not an
 * absolute http(s) URL are dropped, so `javascript:`, `data:` and the like are never followed or
 * run. `ownHost` is this site's host.
 */
export function builderPrefill(search: URLSearchParams, ownHost: string): BuilderPrefill {
  const media = (search.get('media') ?? '').trim();
  const imageUrl = media.length <= LIMITS.imageUrl && isAllowedImageUrl(media, [ownHost]) ? media : '';
  const shared = sharedText(search);
  const sourceUrl = normalizeSourceUrl((search.get('url') || shared.link).trim());
  const description = plainText(search.get('description') ?? shared.text, LIMITS.description);
  const title = plainText(search.get('title') ?? '', LIMITS.title).split('\n')[0] || titleFrom(description) || (sourceUrl ? sourceHost(sourceUrl) : '');
  return { title: title.slice(0, LIMITS.title), imageUrl, description, sourceUrl };
}
