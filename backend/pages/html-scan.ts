import { Parser } from 'htmlparser2';
import { declaredSize, parseSrcset, type SrcsetCandidate, widestFirst } from './srcset.ts';

// One pass of htmlparser2's tolerant SAX parser over a page (no document tree is built): what the
// page says about its pictures and its title, as written. Addresses are not resolved or judged
// here; html-pictures.ts does that. docs/page-images.md.

/** An attribute value longer than this is not read: no address or srcset worth taking is that long. */
const ATTRIBUTE_MAX = 32 * 1024;
/** Pictures of each kind read per page: a page with more (an endless gallery) is judged on its first ones. */
const IMG_MAX = 2000;
const META_MAX = 100;
/** Title text kept while reading (it is cut to 300 characters afterwards). */
const TEXT_MAX = 4096;
/** srcset candidates kept per <picture>. */
const SRCSET_MAX = 64;

/** A picture named by the page's metadata (og:image, twitter:image, <link rel="image_src">). */
export interface MetaPicture {
  /** Addresses of the same picture, best first (og:image:secure_url before og:image). */
  urls: string[];
  width?: number;
  height?: number;
  alt?: string;
}

/** An <img>: its addresses, best first, and what its attributes declare. */
export interface ImgFound {
  /** srcset candidates (its own, data-srcset's and its <picture>'s <source>s'), widest first. */
  srcset: SrcsetCandidate[];
  /** data-lazy-src, data-src, then src. */
  fallbacks: string[];
  width?: number;
  height?: number;
  alt?: string;
}

export interface PageScan {
  /** The first <title>'s text (not an SVG's), raw. */
  title: string;
  ogTitle: string | undefined;
  /** The first <base href>. */
  base: string | undefined;
  og: MetaPicture[];
  twitter: MetaPicture[];
  imageSrc: MetaPicture[];
  imgs: ImgFound[];
}

interface OpenOg {
  url?: string;
  secure?: string;
  width?: number;
  height?: number;
  alt?: string;
}

const ogPicture = (og: OpenOg): MetaPicture => ({
  urls: [og.secure, og.url].filter((url): url is string => url !== undefined),
  ...(og.width !== undefined ? { width: og.width } : {}),
  ...(og.height !== undefined ? { height: og.height } : {}),
  ...(og.alt !== undefined ? { alt: og.alt } : {}),
});

/** What a scan holds while it reads. */
interface ScanState {
  scan: PageScan;
  og: OpenOg[];
  svgDepth: number;
  inTitle: boolean;
  titleDone: boolean;
  /** The <source>s' candidates of the <picture> being read, else null. */
  pictureSources: SrcsetCandidate[] | null;
}

type Attr = (name: string) => string | undefined;

function lastOg(og: OpenOg[]): OpenOg {
  const last = og.at(-1);
  if (last) return last;
  const opened: OpenOg = {};
  og.push(opened);
  return opened;
}

/** og:title, og:image (with its structured properties) and twitter:image. */
function onMeta({ scan, og }: ScanState, key: string, content: string): void {
  if (key === 'og:title') scan.ogTitle ??= content || undefined;
  else if (content === '') return;
  else if (key === 'og:image' || key === 'og:image:url') {
    const last = og.at(-1);
    if (last && last.url === undefined) last.url = content;
    else if (og.length < META_MAX) og.push({ url: content });
  } else if (key === 'og:image:secure_url') {
    const last = og.at(-1);
    if (last && last.secure === undefined) last.secure = content;
    else if (og.length < META_MAX) og.push({ secure: content });
  } else if (key === 'og:image:width') lastOg(og).width = declaredSize(content);
  else if (key === 'og:image:height') lastOg(og).height = declaredSize(content);
  else if (key === 'og:image:alt') lastOg(og).alt = content;
  else if ((key === 'twitter:image' || key === 'twitter:image:src') && scan.twitter.length < META_MAX) scan.twitter.push({ urls: [content] });
  else if (key === 'twitter:image:alt' && scan.twitter.length > 0) (scan.twitter.at(-1) as MetaPicture).alt = content;
}

function onImg({ scan, pictureSources }: ScanState, attr: Attr): void {
  if (scan.imgs.length >= IMG_MAX) return;
  const own = [attr('srcset'), attr('data-srcset')].flatMap((value) => (value ? parseSrcset(value) : []));
  const fallbacks = [attr('data-lazy-src'), attr('data-src'), attr('src')].filter((url): url is string => url !== undefined && url.trim() !== '');
  const width = declaredSize(attr('width'));
  const height = declaredSize(attr('height'));
  const alt = attr('alt');
  scan.imgs.push({
    srcset: widestFirst([...own, ...(pictureSources ?? [])]),
    fallbacks,
    ...(width !== undefined ? { width } : {}),
    ...(height !== undefined ? { height } : {}),
    ...(alt !== undefined ? { alt } : {}),
  });
}

function onOpenTag(state: ScanState, name: string, attr: Attr): void {
  const { scan } = state;
  if (name === 'svg') state.svgDepth++;
  else if (name === 'title' && state.svgDepth === 0 && !state.titleDone) state.inTitle = true;
  else if (name === 'meta') {
    const key = (attr('property') ?? attr('name') ?? '').trim().toLowerCase();
    if (key.startsWith('og:') || key.startsWith('twitter:')) onMeta(state, key, (attr('content') ?? '').trim());
  } else if (name === 'link') {
    const rel = (attr('rel') ?? '').toLowerCase().split(/\s+/);
    const href = attr('href')?.trim();
    if (rel.includes('image_src') && href && scan.imageSrc.length < META_MAX) scan.imageSrc.push({ urls: [href] });
  } else if (name === 'base') {
    const href = attr('href')?.trim();
    if (href && scan.base === undefined) scan.base = href;
  } else if (name === 'picture') state.pictureSources = [];
  else if (name === 'source' && state.pictureSources !== null && !(attr('type') ?? '').toLowerCase().includes('svg')) {
    const srcset = attr('srcset') ?? attr('data-srcset');
    if (srcset && state.pictureSources.length < SRCSET_MAX) state.pictureSources.push(...parseSrcset(srcset));
  } else if (name === 'img') onImg(state, attr);
}

function onCloseTag(state: ScanState, name: string): void {
  if (name === 'svg') state.svgDepth = Math.max(0, state.svgDepth - 1);
  else if (name === 'title' && state.inTitle) {
    state.inTitle = false;
    state.titleDone = true;
  } else if (name === 'picture') state.pictureSources = null;
}

export function scanHtml(html: string): PageScan {
  const scan: PageScan = { title: '', ogTitle: undefined, base: undefined, og: [], twitter: [], imageSrc: [], imgs: [] };
  const state: ScanState = { scan, og: [], svgDepth: 0, inTitle: false, titleDone: false, pictureSources: null };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        onOpenTag(state, name, (key) => {
          const value = attribs[key];
          return value !== undefined && value.length <= ATTRIBUTE_MAX ? value : undefined;
        });
      },
      ontext(text) {
        if (state.inTitle && scan.title.length < TEXT_MAX) scan.title += text.slice(0, TEXT_MAX - scan.title.length);
      },
      onclosetag(name) {
        onCloseTag(state, name);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch {
    // htmlparser2 reads any text; should it ever throw, what was found so far is kept.
  }
  scan.og = state.og.map(ogPicture).filter((picture) => picture.urls.length > 0);
  return scan;
}
