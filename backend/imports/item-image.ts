import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { HttpError, ImageRefusedError } from '../errors.ts';
import { SafeFetchError, safeFetch } from '../images/safe-fetch.ts';
import type { ImageConfig } from '../config-images.ts';
import type { ItemData } from './items.ts';

// The bytes of an item's image: fetched from its address through the SSRF guard, or read from the
// file its ZIP entry was inflated to. Either way they then go through storeImage like an upload's.

/** Why an item failed, for good or for now, in words the import page shows. */
export class ItemFailure extends Error {
  /** A passing failure (a server down or slow): the item is tried again later. */
  readonly passing: boolean;
  constructor(reason: string, passing = false) {
    super(reason);
    this.passing = passing;
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
  return new ItemFailure(FETCH_REASONS[error.reason], error.reason === 'timeout' || error.reason === 'network');
}

export interface ImageLoadOptions {
  /** The extracted entries of the import's ZIP. */
  filesDir: string | null;
  imports: ImageConfig['imports'];
  signal?: AbortSignal;
}

export async function loadItemImage(image: NonNullable<ItemData['image']>, options: ImageLoadOptions): Promise<Buffer> {
  if ('file' in image) {
    if (!options.filesDir || !/^\d+$/.test(image.file)) throw new ItemFailure('no image');
    const file = path.join(options.filesDir, image.file);
    const info = await stat(file).catch(() => undefined);
    if (!info) throw new ItemFailure('the file is gone: import the ZIP again');
    if (info.size > IMAGE_LIMITS.maxBytes) throw new ItemFailure('image over 20 MB');
    return readFile(file);
  }
  try {
    const { allowCidrs: cidrs, allowPorts: ports, headersTimeoutMs } = options.imports;
    const fetched = await safeFetch(image.url, { maxBytes: IMAGE_LIMITS.maxBytes, headersTimeoutMs, ...(options.signal ? { signal: options.signal } : {}), allow: { cidrs, ports } });
    return fetched.bytes;
  } catch (error) {
    if (error instanceof SafeFetchError) throw fetchFailure(error);
    throw error;
  }
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
