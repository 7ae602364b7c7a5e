import pLimit from 'p-limit';
import sharp, { type OutputInfo, type Sharp, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { IMAGE_LIMITS, THUMBNAIL_WIDTHS, type ThumbnailWidth } from '../../contract/images.ts';
import { MSG } from '../../contract/messages.ts';
import type { ImageFormat } from '../../db/schema.ts';
import { HttpError, ImageRefusedError } from '../errors.ts';
import { gifIsComplete } from './gif.ts';

// The derived data of a stored image (DESIGN §10, NOTES §2): its size after EXIF orientation, a
// thumbhash placeholder and WebP thumbnails 236 and 736 px wide, all made with sharp (libvips).

// One libvips thread per image: parallelism comes from running images side by side (below), and
// glibc's allocator fragments badly under many libvips threads (lovell/sharp#2607). No cache of
// opened files: every input is a buffer seen once.
sharp.concurrency(1);
sharp.cache({ files: 0 });

const INPUT: SharpOptions = {
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
  width: number;
  height: number;
  /** A thumbhash, base64. */
  placeholder: string;
  /** WebP files by width (never wider than the image). */
  thumbnails: Record<ThumbnailWidth, Buffer>;
}

// libvips runs on libuv's thread pool (4 threads), which also reads every file the server sends and
// hashes passwords: images take at most `concurrency` of them, and beyond a bounded queue a caller is
// told the server is busy (503) rather than holding its 20 MB in memory without end.
let limit = pLimit(2);
let maxQueued = 20;

export function configureImageProcessing(options: { concurrency: number; queue: number }): void {
  limit = pLimit(options.concurrency);
  maxQueued = options.queue;
}

/**
 * Reads, checks and derives an image whose format was already recognised from its bytes (detect.ts).
 * Refusals (damaged, truncated, too many pixels, not what its bytes claimed) are ImageRefusedError.
 */
export function processImage(bytes: Buffer, format: ImageFormat): Promise<ProcessedImage> {
  if (limit.pendingCount >= maxQueued) return Promise.reject(new HttpError(503, MSG.busy));
  return limit(() => derive(bytes, format));
}

async function derive(bytes: Buffer, format: ImageFormat): Promise<ProcessedImage> {
  let width: number;
  let height: number;
  let base: { data: Buffer; info: OutputInfo };
  try {
    // The header: sharp refuses one past the pixel limit here already.
    const meta = await sharp(bytes, INPUT).metadata();
    // Magic bytes and decoder agree, or the file is not what it claims (a HEIC in an AVIF's clothes).
    if (meta.format !== DECODER[format] || (format === 'avif' && meta.compression !== 'av1')) throw new ImageRefusedError('damaged');
    // A GIF cut off after its first frame decodes without a warning (gif.ts).
    if (format === 'gif' && !gifIsComplete(bytes)) throw new ImageRefusedError('damaged');
    ({ width, height } = meta.autoOrient);
    if (width * height > IMAGE_LIMITS.maxPixels) throw new ImageRefusedError('too-many-pixels');
    // One decode of the whole file (so a truncated or corrupt one fails here), straight to the
    // largest thumbnail's pixels; everything else is made from those (JPEG shrink-on-load makes a
    // 12 MP photo's decode a fraction of a full one).
    base = await sharp(bytes, INPUT)
      .resize({ width: Math.max(...THUMBNAIL_WIDTHS), height: WEBP_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw asRefusal(error);
  }
  const raw = { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } } as const;
  const fromBase = () => sharp(base.data, raw);
  const [thumbnails, placeholder] = await Promise.all([
    Promise.all(
      THUMBNAIL_WIDTHS.map((thumbnailWidth) =>
        fromBase()
          .resize({ width: thumbnailWidth, height: WEBP_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer(),
      ),
    ),
    placeholderOf(fromBase()),
  ]);
  return {
    width,
    height,
    placeholder,
    thumbnails: Object.fromEntries(THUMBNAIL_WIDTHS.map((w, i) => [w, thumbnails[i] as Buffer])) as Record<ThumbnailWidth, Buffer>,
  };
}

async function placeholderOf(image: Sharp): Promise<string> {
  const { data, info } = await image
    .resize({ width: PLACEHOLDER_SIDE, height: PLACEHOLDER_SIDE, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

/** sharp's errors are plain Errors; the pixel limit is the one refusal with its own message. */
function asRefusal(error: unknown): ImageRefusedError {
  if (error instanceof ImageRefusedError) return error;
  const message = error instanceof Error ? error.message : '';
  return new ImageRefusedError(/pixel limit/i.test(message) ? 'too-many-pixels' : 'damaged', { cause: error });
}
