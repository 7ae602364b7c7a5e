import { fileTypeFromBuffer } from 'file-type';
import type { ImageFormat } from '../../db/schema.ts';

// What a file is comes from its bytes alone (file-type reads the magic numbers and, for the ISO
// media family, the brands). A name or a declared Content-Type is whatever the sender chose: a
// page renamed photo.jpg, or an SVG (scriptable, so never stored) sent as image/png, is refused.

const FORMATS: Record<string, ImageFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  // An animated PNG is a PNG whose first frame any decoder shows; it is stored as a PNG.
  'image/apng': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/** The image format of these bytes, or undefined when they are none of the five we store. */
export async function detectImageFormat(bytes: Uint8Array): Promise<ImageFormat | undefined> {
  const type = await fileTypeFromBuffer(bytes);
  return type ? FORMATS[type.mime] : undefined;
}
