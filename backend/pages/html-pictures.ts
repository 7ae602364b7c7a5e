import { LIMITS } from '../../contract/limits.ts';
import { PAGE_IMAGES_MAX, type PageImage } from '../../contract/pages.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { type ImgFound, type MetaPicture, scanHtml } from './html-scan.ts';

// The pictures of an HTML page, best first (docs/page-images.md): the ones its metadata names
// (og:image, twitter:image, <link rel="image_src">), then its large <img>s, largest first. Every
// address is resolved against <base href> or the page's own address and kept only when a pin could
// carry it: absolute http(s), at most 2,048 characters, not an SVG.

/** A picture declared smaller than this on either side is an icon, a spacer or a tracking pixel. */
export const PAGE_IMAGE_MIN_SIDE = 100;
const TITLE_MAX = 300;
const ALT_MAX = 300;
/** Sizes beyond this are not believed (and would not fit the answer's integers). */
const SIZE_MAX = 100_000;

/** Runs of white space as one space, trimmed, at most `max` characters (never half a surrogate pair). */
function cleanText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : Array.from(clean).slice(0, max).join('').trim();
}

/** The address a picture's relative addresses are resolved against. */
function baseOf(base: string | undefined, pageUrl: string): URL | undefined {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (base === undefined) return page;
  try {
    const url = new URL(base, page);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : page;
  } catch {
    return page;
  }
}

/** The absolute address of a picture, or undefined when a pin could not take it. */
function resolve(raw: string, base: URL | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (/\.svgz?$/i.test(url.pathname)) return undefined;
  url.hash = '';
  const href = url.href;
  return href.length <= LIMITS.imageUrl && isAllowedImageUrl(href) ? href : undefined;
}

const size = (value: number | undefined) => (value !== undefined && value >= 1 && value <= SIZE_MAX ? Math.round(value) : undefined);

/** True when a side is declared and too small for a picture. */
const declaredSmall = (width: number | undefined, height: number | undefined) => (width !== undefined && width < PAGE_IMAGE_MIN_SIDE) || (height !== undefined && height < PAGE_IMAGE_MIN_SIDE);

function picture(url: string, width: number | undefined, height: number | undefined, alt: string | undefined): PageImage {
  const [w, h] = [size(width), size(height)];
  const text = alt === undefined ? '' : cleanText(alt, ALT_MAX);
  return { url, ...(w !== undefined ? { width: w } : {}), ...(h !== undefined ? { height: h } : {}), ...(text ? { alt: text } : {}) };
}

function metaPicture(meta: MetaPicture, base: URL | undefined): PageImage | undefined {
  if (declaredSmall(meta.width, meta.height)) return undefined;
  const url = meta.urls.map((raw) => resolve(raw, base)).find((href) => href !== undefined);
  return url === undefined ? undefined : picture(url, meta.width, meta.height, meta.alt);
}

/**
 * An <img>'s picture: its widest srcset candidate the rules accept, else data-lazy-src, data-src,
 * src. Its size is what its attributes declare, scaled to the candidate's `w` or `x` when it has one.
 */
function imgPicture(img: ImgFound, base: URL | undefined): PageImage | undefined {
  if (declaredSmall(img.width, img.height)) return undefined;
  for (const candidate of img.srcset) {
    const url = resolve(candidate.url, base);
    if (url === undefined) continue;
    const width = candidate.width;
    if (width === undefined) {
      // A density candidate (2x) is that many times the declared size.
      const scale = candidate.density ?? 1;
      return picture(url, img.width && img.width * scale, img.height && img.height * scale, img.alt);
    }
    if (width < PAGE_IMAGE_MIN_SIDE) return undefined;
    const height = img.width && img.height ? (img.height * width) / img.width : undefined;
    return picture(url, width, height, img.alt);
  }
  for (const raw of img.fallbacks) {
    const url = resolve(raw, base);
    if (url !== undefined) return picture(url, img.width, img.height, img.alt);
  }
  return undefined;
}

const area = (image: PageImage) => (image.width !== undefined && image.height !== undefined ? image.width * image.height : undefined);

/** Largest declared area first; pictures of unknown size after them; the page's order among equals. */
function bySize(images: PageImage[]): PageImage[] {
  const declared = images.filter((image) => area(image) !== undefined);
  const unknown = images.filter((image) => area(image) === undefined);
  return [...declared.sort((a, b) => (area(b) as number) - (area(a) as number)), ...unknown];
}

/** The pictures of an HTML document and its title (og:title, else <title>). */
export function picturesOfHtml(html: string, pageUrl: string): { title: string; images: PageImage[] } {
  const scan = scanHtml(html);
  const base = baseOf(scan.base, pageUrl);
  const found = new Map<string, PageImage>();
  const add = (image: PageImage | undefined) => {
    if (image === undefined) return;
    const known = found.get(image.url);
    // The same picture again: what the first mention lacked (a size, a description) is taken from it.
    if (known) {
      if (known.width === undefined && known.height === undefined && image.width !== undefined)
        Object.assign(known, { width: image.width, ...(image.height !== undefined ? { height: image.height } : {}) });
      if (known.alt === undefined && image.alt !== undefined) known.alt = image.alt;
    } else if (found.size < PAGE_IMAGES_MAX) found.set(image.url, image);
  };
  for (const meta of [...scan.og, ...scan.twitter, ...scan.imageSrc]) add(metaPicture(meta, base));
  for (const image of bySize(scan.imgs.map((img) => imgPicture(img, base)).filter((image) => image !== undefined))) add(image);
  const title = cleanText(scan.ogTitle ?? '', TITLE_MAX) || cleanText(scan.title, TITLE_MAX);
  return { title, images: [...found.values()] };
}
