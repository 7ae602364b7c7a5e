import { IMAGE_LIMITS } from '../../contract/images.ts';
import { HttpError, ImageRefusedError } from '../errors.ts';
import { detectImageFormat } from '../images/detect.ts';
import { SafeFetchError, type SafeFetchOptions, safeFetch } from '../images/safe-fetch.ts';
import { readPage } from '../pages/page-images.ts';
import type { ImageConfig } from '../config-images.ts';
import { type ArchiveEntries, EntryGone } from './files.ts';

// The bytes of an item's image: fetched from its address through the SSRF guard, or inflated from
// its entry of the import's ZIP. Either way they then go through storeImage like an upload's.

/** Why an item failed, for good or for now, in words the import page shows. */
export class ItemFailure extends Error {
  /** A passing failure (a server down or slow): the item is tried again later. */
  readonly passing: boolean;
  /** The image's host did not answer in time: it is left alone for a while (host-cooldown.ts). */
  readonly hostTimedOut: boolean;
  constructor(reason: string, passing = false, hostTimedOut = false) {
    super(reason);
    this.passing = passing;
    this.hostTimedOut = hostTimedOut;
  }
}

const FETCH_REASONS: Record<SafeFetchError['reason'], string> = {
  bad_url: 'not an image address',
  bad_scheme: 'not an http(s) address',
  bad_port: 'address not allowed (port)',
  blocked_address: 'address not allowed',
  too_many_redirects: 'too many redirects',
  too_large: 'image over 20 MB',
  timeout: 'timed out',
  http_status: 'the image server refused',
  unknown_host: 'unknown host',
  network: 'could not connect',
};

function fetchFailure(error: SafeFetchError): ItemFailure {
  if (error.reason === 'http_status') {
    const status = error.status ?? 0;
    const passing = status >= 500 || status === 429 || status === 408;
    return new ItemFailure(status === 404 || status === 410 ? `not found (${status})` : `the image server answered ${status}`, passing);
  }
  return new ItemFailure(FETCH_REASONS[error.reason], error.reason === 'timeout' || error.reason === 'network', error.reason === 'timeout');
}

export interface ImageLoadOptions {
  /** The entries of the import's ZIP (null for a bookmark file). */
  archive: ArchiveEntries | null;
  fetching: ImageConfig['fetching'];
  signal?: AbortSignal;
}

const tooLarge = () => new ItemFailure('image over 20 MB');

/** Pictures of a page tried, best first, before its item fails (one that is gone, too small to decode…). */
const PAGE_PICTURES_TRIED = 3;

export async function loadItemImage(image: { url: string } | { page: string } | { file: string }, options: ImageLoadOptions): Promise<Buffer> {
  if ('file' in image) {
    if (!options.archive) throw new ItemFailure('no image');
    return options.archive.read(image.file, tooLarge).catch((error: unknown) => {
      throw error instanceof EntryGone ? new ItemFailure(error.message) : error;
    });
  }
  const { allowCidrs: cidrs, allowPorts: ports, headersTimeoutMs } = options.fetching;
  const fetchOptions = { headersTimeoutMs, ...(options.signal ? { signal: options.signal } : {}), allow: { cidrs, ports } };
  try {
    if ('url' in image) return (await safeFetch(image.url, { maxBytes: IMAGE_LIMITS.maxBytes, ...fetchOptions })).bytes;
    const page = await readPage(image.page, fetchOptions);
    if (page.kind === 'image') return page.bytes;
    if (!page.images.length) throw new ItemFailure('no picture on the page');
    return await firstPicture(
      page.images.slice(0, PAGE_PICTURES_TRIED).map((picture) => picture.url),
      fetchOptions,
    );
  } catch (error) {
    if (error instanceof SafeFetchError) throw fetchFailure(error);
    throw error;
  }
}

/** The first of a page's pictures that can be fetched; the last one's failure when none can. */
async function firstPicture(urls: string[], options: Omit<SafeFetchOptions, 'maxBytes'>): Promise<Buffer> {
  let failure: unknown;
  for (const url of urls) {
    try {
      const { bytes } = await safeFetch(url, { maxBytes: IMAGE_LIMITS.maxBytes, ...options });
      if (await detectImageFormat(bytes)) return bytes;
      failure = new ItemFailure('not an image');
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      failure = error;
    }
  }
  throw failure;
}

const REFUSALS: Partial<Record<ImageRefusedError['reason'], string>> = {
  'not-an-image': 'not an image',
  empty: 'empty file',
  damaged: 'damaged image',
  'too-many-pixels': 'too many pixels',
  'too-large': 'image over 20 MB',
};

/** A refusal of the bytes themselves (not an image, damaged, too large) is the item's failure; a busy processor passes; anything else is not the item's. */
export function storeFailure(error: unknown): ItemFailure | undefined {
  if (error instanceof ImageRefusedError) return new ItemFailure(REFUSALS[error.reason] ?? error.message.replace(/\.$/, ''));
  if (error instanceof HttpError && error.status < 500) return new ItemFailure(error.message.replace(/\.$/, ''));
  if (error instanceof HttpError && error.status === 503) return new ItemFailure('server busy', true);
  return undefined;
}
