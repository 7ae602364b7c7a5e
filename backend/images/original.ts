import sharp, { type Metadata } from 'sharp';
import type { ImageFormat } from '../../db/schema.ts';
import { IMAGE_LIMITS } from '../../contract/limits.ts';
import { stripMetadata } from './metadata-strip.ts';
import type { Deadline } from './process.ts';

// The original as it is stored and served: without EXIF, XMP, IPTC or comments (a phone photo's GPS
// position, camera and capture time would otherwise reach anyone who opens it), seen the right way
// up, with its colour profile. Two ways there:
//   - copied without its metadata blocks (metadata-strip.ts): the pixels stay byte for byte, no
//     quality is lost and it costs milliseconds. This is the way whenever it is enough;
//   - re-encoded by libvips with the orientation applied and only the ICC profile kept: when an
//     EXIF orientation other than "upright" must be applied (dropping it would turn the picture),
//     for AVIF that carries metadata (its boxes are not rewritten here), and whenever the copy
//     still shows metadata to libvips. High quality, and lossless where the source was.

/** What a file that needs no orientation looks like to sharp. */
const UPRIGHT = new Set([undefined, 1]);

function hasMetadata(meta: Metadata): boolean {
  return meta.exif !== undefined || meta.xmp !== undefined || meta.iptc !== undefined || (meta.comments?.length ?? 0) > 0;
}

/**
 * The stored form of a file whose header `meta` has been checked (process.ts: checkHeader). With
 * `inPlace` it may be written over `bytes` (see stripMetadata), which the caller must not use again.
 */
export async function cleanOriginal(bytes: Buffer, format: ImageFormat, meta: Metadata, deadline: Deadline, options: { maxPixels?: number; inPlace?: boolean } = {}): Promise<Buffer> {
  const maxPixels = options.maxPixels ?? IMAGE_LIMITS.maxPixels;
  if (UPRIGHT.has(meta.orientation)) {
    const stripped = format === 'avif' && !hasMetadata(meta) ? bytes : stripMetadata(bytes, format, { inPlace: options.inPlace === true });
    if (stripped && !hasMetadata(await sharp(stripped, { pages: 1, limitInputPixels: maxPixels }).metadata())) return stripped;
    // What libvips still finds (a block kept on purpose that carries some) goes with a re-encode of
    // the copy, which has the same pixels (and, upright, needs no orientation).
    if (stripped) return reencode(stripped, format, meta, deadline, maxPixels);
  }
  return reencode(bytes, format, meta, deadline, maxPixels);
}

/** WebP's lossless flavour (VP8L) must stay lossless: a screenshot or a drawing is not a photo. */
function isLosslessWebp(bytes: Buffer): boolean {
  return bytes.includes('VP8L', 12, 'latin1');
}

async function reencode(bytes: Buffer, format: ImageFormat, meta: Metadata, deadline: Deadline, maxPixels: number): Promise<Buffer> {
  // Every frame of an animation (each page's pixels count against the pixel limit together).
  const pages = meta.pages ?? 1;
  const animated = pages > 1 && (format === 'gif' || format === 'webp');
  const image = sharp(bytes, {
    failOn: 'error',
    limitInputPixels: maxPixels,
    autoOrient: true,
    pages: animated ? -1 : 1,
  })
    .timeout(deadline.seconds())
    // The profile stays (colours as shot); EXIF, XMP and IPTC are not written.
    .keepIccProfile();
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer();
    case 'png':
      return image.png({ compressionLevel: 9, palette: meta.isPalette === true }).toBuffer();
    case 'webp':
      return image.webp(isLosslessWebp(bytes) ? { lossless: true } : { quality: 90 }).toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    case 'avif':
      return image.avif({ quality: 70, effort: 2 }).toBuffer();
  }
}
