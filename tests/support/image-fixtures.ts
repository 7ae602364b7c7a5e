import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Image files for the upload and storage tests, made on the spot with sharp (nothing binary is
// checked in). Noise makes them photo-like: compressed, they are kilobytes, not a few bytes.

const noise = { type: 'gaussian', mean: 128, sigma: 40 } as const;

/** A JPEG stored landscape (width × height) with EXIF orientation 6: it is seen rotated, height × width. */
export function jpegRotated(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } }).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer();
}

export function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } }).jpeg({ quality: 85 }).toBuffer();
}

/** A PNG with a half-transparent alpha channel. */
export function pngWithAlpha(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 120, b: 220, alpha: 0.5 } } }).png().toBuffer();
}

export function webp(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } }).webp().toBuffer();
}

export function avif(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } }).avif({ effort: 0 }).toBuffer();
}

/** An animated GIF of `frames` frames, each width × height, each a different colour. */
export async function animatedGif(width: number, height: number, frames = 3): Promise<Buffer> {
  const colours = ['#d33', '#3d3', '#33d', '#dd3'];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 4, background: colours[i % colours.length] as string } }).png().toBuffer()),
  );
  return sharp(pages, { join: { animated: true } }).gif({ delay: pages.map(() => 100), loop: 0 }).toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG header claiming width × height greyscale pixels (20000 × 20000
 * is 400 megapixels, 400 MB decoded) followed by a few hundred bytes of data.
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc((width + 1) * 16));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', rows), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Decodes a file's header: format, size (width and height as stored), frames, alpha. */
export function describeImage(bytes: Buffer) {
  return sharp(bytes).metadata();
}
