import { readFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import sharp, { type Metadata, type OutputInfo, type Sharp, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { IMAGE_LIMITS, THUMBNAIL_WIDTHS, type ThumbnailWidth } from '../../contract/images.ts';
import { MSG } from '../../contract/messages.ts';
import type { ImageFormat } from '../../db/schema.ts';
import { HttpError, ImageRefusedError } from '../errors.ts';
import { detectImageFormat } from './detect.ts';
import { gifIsComplete } from './gif.ts';
import { cleanOriginal } from './original.ts';
import { type SeenFacts, seePicture } from './seen/see.ts';

// What is stored of an image (docs/images.md): its original without metadata (original.ts), its
// size after EXIF orientation, a thumbhash placeholder, WebP thumbnails 236 and 736 px wide and
// what is seen in it (perceptual hashes, palette, colour names: seen/see.ts), all made with sharp
// (libvips). What may be processed is decided from the header alone, before
// anything is decoded: the format (from the bytes), the pixels, the longest side and the shape;
// then every libvips pipeline of the image shares one deadline.

// One libvips thread per image: parallelism comes from running images side by side (below), and
// glibc's allocator fragments badly under many libvips threads (lovell/sharp#2607). No operation
// cache at all: every input is seen once, so libvips' default 50 MB of cached results would only
// hold memory (bench:upload-memory).
sharp.concurrency(1);
sharp.cache(false);
// Only the five decoders the product stores are open to user bytes (AVIF is read by the HEIF
// loader, and checked to be AV1 below): SVG, PDF, TIFF, JPEG 2000, JPEG XL, ImageMagick and the
// rest of libvips' loaders are never reached, whatever a file's bytes make libvips believe.
sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({ operation: ['VipsForeignLoadJpeg', 'VipsForeignLoadPng', 'VipsForeignLoadWebp', 'VipsForeignLoadNsgif', 'VipsForeignLoadHeif'] });

export const INPUT: SharpOptions = {
  // 'error' refuses truncated and corrupt pixel data; 'warning' would also refuse the harmless
  // oddities many cameras write (extra bytes between JPEG markers).
  failOn: 'error',
  // A small file can claim a huge size and decode to gigabytes: refused from its header.
  limitInputPixels: IMAGE_LIMITS.maxPixels,
  // Width, height and thumbnails as the image is meant to be seen (a phone's portrait photo is
  // stored landscape with an EXIF orientation).
  autoOrient: true,
  // Only the first frame of an animated GIF or WebP (sharp's default, said here on purpose).
  pages: 1,
};

/** WebP's largest side: a thumbnail of a very tall image is made narrower rather than refused. */
const WEBP_MAX_SIDE = 16_383;
/** thumbhash encodes at most 100×100. */
const PLACEHOLDER_SIDE = 100;

/** sharp's own name for each format's decoder (AVIF is read by the HEIF loader). */
const DECODER: Record<ImageFormat, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif', avif: 'heif' };

export interface ProcessedImage {
  format: ImageFormat;
  /** The original as stored: without its metadata, its orientation applied. */
  original: Buffer;
  width: number;
  height: number;
  /** A thumbhash, base64. */
  placeholder: string;
  /** WebP files by width (never wider than the image). */
  thumbnails: Record<ThumbnailWidth, Buffer>;
  /** Its hashes and colours, from the same decoded pixels. */
  seen: SeenFacts;
}

// libvips runs on libuv's thread pool (4 threads), which also reads every file the server sends and
// hashes passwords: images take at most `concurrency` of them, and beyond a bounded queue a caller is
// told the server is busy (503) rather than waiting without end. An upload waits as a file on disk
// and is read into memory only once its turn has come.
let limit = pLimit(2);
let maxQueued = 20;
let timeoutMs = 10_000;

export function configureImageProcessing(options: { concurrency: number; queue: number; timeoutSeconds: number }): void {
  limit = pLimit(options.concurrency);
  maxQueued = options.queue;
  timeoutMs = options.timeoutSeconds * 1000;
}

/** One image's processing deadline: each libvips pipeline gets what is left of it. */
export class Deadline {
  private readonly end: number;
  constructor(ms: number) {
    this.end = Date.now() + ms;
  }
  /** For sharp's `timeout` (whole seconds, at least one); too-slow once the time is up. */
  seconds(): { seconds: number } {
    const left = this.end - Date.now();
    if (left <= 0) throw new ImageRefusedError('too-slow');
    return { seconds: Math.max(1, Math.ceil(left / 1000)) };
  }
}

/** libvips' operation cache and its threads' work, for the memory figures (bench:footprint). */
export function imageProcessingStats(): { cacheBytes: number; cacheItems: number; queued: number; processing: number } {
  const cache = sharp.cache();
  const counters = sharp.counters();
  return { cacheBytes: cache.memory.current * 2 ** 20, cacheItems: cache.items.current, queued: counters.queue, processing: counters.process };
}

/**
 * Reads, checks and derives an image: bytes in memory (a fetch by URL) or an uploaded file on disk.
 * Refusals (not an image, damaged, truncated, too many pixels, too long or narrow, too slow, not
 * what its bytes claimed) are ImageRefusedError.
 */
export function processImage(input: Buffer | string): Promise<ProcessedImage> {
  if (limit.pendingCount >= maxQueued) return Promise.reject(new HttpError(503, MSG.busy));
  return limit(async () => derive(typeof input === 'string' ? await readFile(input) : input, new Deadline(timeoutMs)));
}

/**
 * The original of an image stored before metadata was removed, without it (strip-job.ts), in a
 * processing slot like any image. Such files were accepted up to 100 megapixels.
 */
export function cleanStoredOriginal(bytes: Buffer, format: ImageFormat): Promise<Buffer> {
  if (limit.pendingCount >= maxQueued) return Promise.reject(new HttpError(503, MSG.busy));
  return limit(async () => {
    const legacyPixels = 100_000_000;
    const meta = await sharp(bytes, { ...INPUT, limitInputPixels: legacyPixels }).metadata();
    return cleanOriginal(bytes, format, meta, new Deadline(timeoutMs * 3), { maxPixels: legacyPixels });
  });
}

/**
 * What is seen in an image stored before it was looked at (the images.see backfill), from its
 * stored thumbnail, in a processing slot like any image: the backfill never runs beside a full set
 * of uploads, it waits its turn behind them.
 */
export function seeStoredThumbnail(thumbnail: Buffer): Promise<SeenFacts> {
  if (limit.pendingCount >= maxQueued) return Promise.reject(new HttpError(503, MSG.busy));
  return limit(async () => {
    const deadline = new Deadline(timeoutMs);
    return seePicture(() => sharp(thumbnail, INPUT).timeout(deadline.seconds()));
  });
}

/** Whether images wait for a processing slot (background work then steps aside). */
export function imageProcessingQueued(): boolean {
  return limit.pendingCount > 0;
}

/** The header's verdict: refused unless it is a size and shape worth decoding. */
export function checkHeader(meta: Metadata, format: ImageFormat, bytes: Buffer): { width: number; height: number } {
  // Magic bytes and decoder agree, or the file is not what it claims (a HEIC in an AVIF's clothes).
  if (meta.format !== DECODER[format] || (format === 'avif' && meta.compression !== 'av1')) throw new ImageRefusedError('damaged');
  // A GIF cut off after its first frame decodes without a warning (gif.ts).
  if (format === 'gif' && !gifIsComplete(bytes)) throw new ImageRefusedError('damaged');
  const { width, height } = meta.autoOrient;
  if (width * height > IMAGE_LIMITS.maxPixels) throw new ImageRefusedError('too-many-pixels');
  if (Math.max(width, height) > IMAGE_LIMITS.maxSide) throw new ImageRefusedError('too-long');
  if (Math.max(width, height) > IMAGE_LIMITS.maxAspect * Math.min(width, height)) throw new ImageRefusedError('too-narrow');
  return { width, height };
}

async function derive(bytes: Buffer, deadline: Deadline): Promise<ProcessedImage> {
  if (bytes.length === 0) throw new ImageRefusedError('empty');
  const format = await detectImageFormat(bytes);
  if (!format) throw new ImageRefusedError('not-an-image');
  let size: { width: number; height: number };
  let base: { data: Buffer; info: OutputInfo };
  let original: Buffer;
  try {
    // The header only: sharp refuses one past the pixel limit here already.
    const meta = await sharp(bytes, INPUT).metadata();
    size = checkHeader(meta, format, bytes);
    // One decode of the whole file (so a truncated or corrupt one fails here), straight to the
    // largest thumbnail's pixels; everything else is made from those (JPEG shrink-on-load makes a
    // 12 MP photo's decode a fraction of a full one).
    base = await sharp(bytes, INPUT)
      .timeout(deadline.seconds())
      .resize({ width: Math.max(...THUMBNAIL_WIDTHS), height: WEBP_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    // Last: the original may be rewritten in place, over `bytes` (see metadata-strip.ts).
    original = await cleanOriginal(bytes, format, meta, deadline, { inPlace: true });
  } catch (error) {
    throw asRefusal(error);
  }
  const raw = { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } } as const;
  const fromBase = () => sharp(base.data, raw);
  const [thumbnails, placeholder, seen] = await Promise.all([
    Promise.all(
      THUMBNAIL_WIDTHS.map((thumbnailWidth) =>
        fromBase()
          .resize({ width: thumbnailWidth, height: WEBP_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
          // Effort 2 of 6 (default 4): on the demo photos the 736 px thumbnail takes 28 ms instead
          // of 39 and is 4 % larger; the image pipeline is the import's bottleneck (bench:imports).
          .webp({ quality: 80, effort: 2 })
          .toBuffer(),
      ),
    ),
    placeholderOf(fromBase()),
    seePicture(fromBase),
  ]);
  return {
    format,
    original,
    ...size,
    placeholder,
    seen,
    thumbnails: Object.fromEntries(THUMBNAIL_WIDTHS.map((w, i) => [w, thumbnails[i] as Buffer])) as Record<ThumbnailWidth, Buffer>,
  };
}

async function placeholderOf(image: Sharp): Promise<string> {
  const { data, info } = await image.resize({ width: PLACEHOLDER_SIDE, height: PLACEHOLDER_SIDE, fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

/** sharp's errors are plain Errors; the pixel limit and the deadline are refusals with their own message. */
function asRefusal(error: unknown): ImageRefusedError {
  if (error instanceof ImageRefusedError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return new ImageRefusedError('too-many-pixels', { cause: error });
  if (/timeout/i.test(message)) return new ImageRefusedError('too-slow', { cause: error });
  return new ImageRefusedError('damaged', { cause: error });
}
