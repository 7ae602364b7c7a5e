import type { ImageFormat } from '../../db/schema.ts';

// A stored original must not tell where, when or with what a picture was taken: EXIF (GPS
// position, camera, capture time), XMP, IPTC, comments and text chunks are removed from the file
// itself, losslessly, by copying only the blocks a decoder needs. The pixels stay byte for byte and
// so does the colour profile (ICC); anything the format's structure does not account for (bytes
// after the end marker: phone "motion photo" videos, secondary MPF pictures, trailers) is dropped.
// Formats with no stripper here (AVIF), and files whose orientation must first be applied, are
// re-encoded instead (process.ts).

/**
 * The file without its metadata, or undefined when its structure cannot be walked (a re-encode
 * decides; `bytes` is then untouched). With `inPlace` the result is written over `bytes` itself
 * (which the caller must not use again) instead of a copy: a 20 MB upload then costs 20 MB of
 * memory, not 40. That is safe because every block kept is written at or before where it was read,
 * and every block rewritten (a JPEG marker, the JFIF header, the WebP header) is no longer than
 * what it replaces.
 */
export function stripMetadata(bytes: Buffer, format: ImageFormat, options: { inPlace?: boolean } = {}): Buffer | undefined {
  const parts = partsWithoutMetadata(bytes, format);
  if (!parts) return undefined;
  if (!options.inPlace) return Buffer.concat(parts);
  let at = 0;
  // Buffer#copy is a memmove: a part overlapping where it goes is copied correctly.
  for (const part of parts) at += part.copy(bytes, at);
  return bytes.subarray(0, at);
}

function partsWithoutMetadata(bytes: Buffer, format: ImageFormat): Buffer[] | undefined {
  switch (format) {
    case 'jpeg':
      return stripJpeg(bytes);
    case 'png':
      return stripPng(bytes);
    case 'webp':
      return stripWebp(bytes);
    case 'gif':
      return stripGif(bytes);
    default:
      return undefined;
  }
}

// JPEG (ITU T.81): SOI, then marker segments (FF xx, a 16-bit length that counts itself), entropy-
// coded data after each SOS, EOI. Kept: everything a decoder reads, the JFIF header (without its
// thumbnail), ICC_PROFILE (APP2) and Adobe (APP14, which says how to read CMYK). Dropped: every
// other APPn (Exif and XMP are APP1, MPF APP2, IPTC/Photoshop APP13) and COM.
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;

function startsWith(payload: Buffer, text: string): boolean {
  return payload.subarray(0, text.length).toString('latin1') === text;
}

function keepJpegSegment(marker: number, payload: Buffer): boolean {
  if (marker === COM) return false;
  if (marker < 0xe0 || marker > 0xef) return true;
  if (marker === 0xe0) return startsWith(payload, 'JFIF\0');
  if (marker === 0xe2) return startsWith(payload, 'ICC_PROFILE\0');
  if (marker === 0xee) return startsWith(payload, 'Adobe');
  return false;
}

/** The JFIF APP0 segment with its embedded thumbnail removed (a thumbnail may show what was cropped). */
function jfifWithoutThumbnail(payload: Buffer): Buffer {
  if (payload.length < 14) return Buffer.concat([Buffer.from([0xff, 0xe0, 0, payload.length + 2]), payload]);
  const kept = Buffer.from(payload.subarray(0, 14));
  kept[12] = 0;
  kept[13] = 0;
  return Buffer.concat([Buffer.from([0xff, 0xe0, 0, 16]), kept]);
}

function isEntropyMarker(next: number): boolean {
  // FF 00 is a stuffed FF byte, FF D0–D7 a restart marker, FF FF fill: all part of the scan.
  return next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7);
}

function stripJpeg(b: Buffer): Buffer[] | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== SOI) return undefined;
  const out: Buffer[] = [b.subarray(0, 2)];
  let at = 2;
  for (;;) {
    if (at + 1 >= b.length || b[at] !== 0xff) return undefined;
    let p = at + 1;
    while (p < b.length && b[p] === 0xff) p++; // fill bytes
    if (p >= b.length) return undefined;
    const marker = b[p] as number;
    if (marker === EOI) {
      out.push(Buffer.from([0xff, EOI]));
      return out;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      out.push(Buffer.from([0xff, marker]));
      at = p + 1;
      continue;
    }
    if (p + 2 >= b.length) return undefined;
    const end = p + 1 + b.readUInt16BE(p + 1);
    if (end > b.length || end < p + 3) return undefined;
    const payload = b.subarray(p + 3, end);
    if (keepJpegSegment(marker, payload)) out.push(marker === 0xe0 ? jfifWithoutThumbnail(payload) : Buffer.concat([Buffer.from([0xff, marker]), b.subarray(p + 1, end)]));
    at = end;
    if (marker !== SOS) continue;
    // The scan's data runs to the next marker that is not part of it.
    let q = at;
    for (;;) {
      q = b.indexOf(0xff, q);
      if (q < 0 || q + 1 >= b.length) return undefined;
      if (!isEntropyMarker(b[q + 1] as number)) break;
      q += b[q + 1] === 0xff ? 1 : 2;
    }
    out.push(b.subarray(at, q));
    at = q;
  }
}

// PNG: signature, then chunks (length, type, data, CRC) up to IEND. Kept: the critical chunks
// (upper-case first letter), colour and transparency information, physical size and the APNG
// animation chunks. Dropped: tEXt, zTXt, iTXt (XMP lives there), eXIf, tIME and any other
// ancillary chunk, whose meaning nobody here can vouch for.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_KEPT = new Set(['tRNS', 'cHRM', 'gAMA', 'iCCP', 'sBIT', 'sRGB', 'cICP', 'mDCV', 'cLLI', 'bKGD', 'pHYs', 'acTL', 'fcTL', 'fdAT']);

function stripPng(b: Buffer): Buffer[] | undefined {
  if (b.length < 8 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  const out: Buffer[] = [b.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= b.length) {
    const end = at + 12 + b.readUInt32BE(at);
    if (end > b.length) return undefined;
    const type = b.subarray(at + 4, at + 8).toString('latin1');
    const critical = (type.charCodeAt(0) & 0x20) === 0;
    if (critical || PNG_KEPT.has(type)) out.push(b.subarray(at, end));
    if (type === 'IEND') return out;
    at = end;
  }
  return undefined;
}

// WebP (RIFF): a simple file is one VP8 or VP8L chunk and carries no metadata; an extended one
// (VP8X) lists its chunks and flags them. Kept: image data, alpha, animation and ICCP. Dropped:
// EXIF, XMP and unknown chunks, with their flags cleared.
const WEBP_KEPT = new Set(['VP8X', 'ICCP', 'ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function stripWebp(b: Buffer): Buffer[] | undefined {
  if (b.length < 20 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const chunks: Buffer[] = [];
  let at = 12;
  const riffEnd = Math.min(b.length, 8 + b.readUInt32LE(4));
  while (at + 8 <= riffEnd) {
    const size = b.readUInt32LE(at + 4);
    const end = at + 8 + size + (size & 1);
    if (at + 8 + size > riffEnd) return undefined;
    const type = b.toString('latin1', at, at + 4);
    if (WEBP_KEPT.has(type)) {
      let chunk = b.subarray(at, Math.min(end, riffEnd));
      if (type === 'VP8X') {
        chunk = Buffer.from(chunk);
        chunk[8] = (chunk[8] as number) & ~(VP8X_EXIF | VP8X_XMP);
      }
      chunks.push(chunk);
      // The last chunk may lack its padding byte (only there: a missing one elsewhere fails above).
      if (chunk.length % 2) chunks.push(Buffer.alloc(1));
    }
    at = end;
  }
  if (!chunks.length) return undefined;
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(
    chunks.reduce((sum, chunk) => sum + chunk.length, 4),
    4,
  );
  header.write('WEBP', 8, 'latin1');
  return [header, ...chunks];
}

// GIF89a: header, screen descriptor and colour table, then extension and image blocks made of
// length-prefixed sub-blocks, then the trailer. Kept: images, graphic control (frame timing and
// transparency) and the application blocks that loop an animation or carry its ICC profile.
// Dropped: comments, plain text, and every other application block (XMP is one).
const KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012']);

function stripGif(b: Buffer): Buffer[] | undefined {
  if (b.length < 13 || !b.toString('latin1', 0, 3).startsWith('GIF')) return undefined;
  const tableSize = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let at = 13 + tableSize(b[10] as number);
  const out: Buffer[] = [b.subarray(0, at)];
  /** The end of a run of sub-blocks starting at `from`, or -1 when the file ends first. */
  const subBlocksEnd = (from: number): number => {
    let p = from;
    for (;;) {
      if (p >= b.length) return -1;
      const size = b[p] as number;
      p += 1 + size;
      if (size === 0) return p;
    }
  };
  for (;;) {
    if (at >= b.length) return undefined;
    const block = b[at] as number;
    if (block === 0x3b) {
      out.push(b.subarray(at, at + 1));
      return out;
    }
    if (block === 0x21) {
      const label = b[at + 1] as number;
      const end = subBlocksEnd(at + 2);
      if (end < 0) return undefined;
      const application = label === 0xff && b[at + 2] === 11 ? b.toString('latin1', at + 3, at + 14) : '';
      if (label === 0xf9 || KEPT_APPLICATIONS.has(application)) out.push(b.subarray(at, end));
      at = end;
    } else if (block === 0x2c) {
      if (at + 10 > b.length) return undefined;
      const end = subBlocksEnd(at + 10 + tableSize(b[at + 9] as number) + 1);
      if (end < 0) return undefined;
      out.push(b.subarray(at, end));
      at = end;
    } else {
      return undefined;
    }
  }
}
