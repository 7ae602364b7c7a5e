import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Image files for the upload and storage tests, made on the spot with sharp (nothing binary is
// checked in). Noise makes them photo-like: compressed, they are kilobytes, not a few bytes.

const noise = { type: 'gaussian', mean: 128, sigma: 40 } as const;

/** A JPEG stored landscape (width × height) with EXIF orientation 6: it is seen rotated, height × width. */
export function jpegRotated(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A PNG with a half-transparent alpha channel. */
export function pngWithAlpha(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 120, b: 220, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

export function webp(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } })
    .webp()
    .toBuffer();
}

export function avif(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#000', noise } })
    .avif({ effort: 0 })
    .toBuffer();
}

/** An animated GIF of `frames` frames, each width × height, each a different colour. */
export async function animatedGif(width: number, height: number, frames = 3): Promise<Buffer> {
  const colours = ['#d33', '#3d3', '#33d', '#dd3'];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width, height, channels: 4, background: colours[i % colours.length] as string } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pages, { join: { animated: true } })
    .gif({ delay: pages.map(() => 100), loop: 0 })
    .toBuffer();
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

/** What the private-metadata fixtures hide: none of it may be found in a stored file. */
export const SECRETS = { camera: 'SecretCam', place: 'SecretTown', note: 'SecretNote' } as const;

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="${SECRETS.place}"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
/** A camera's EXIF: make and model, capture time, and a GPS position (48°51'29.6"N 2°21'8.3"E). */
const EXIF = {
  IFD0: { Make: SECRETS.camera, Model: 'X1000', DateTime: '2026:11:27 08:30:00' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 825/100' },
};

const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#000', noise } });

/**
 * A phone photo as phones write it: stored landscape (width × height) with EXIF orientation 6 (seen
 * height × width), GPS position, camera and time in EXIF, a place in XMP, and a Display P3 profile.
 */
export function jpegWithPrivateMetadata(width: number, height: number): Promise<Buffer> {
  return photo(width, height).jpeg({ quality: 85 }).withIccProfile('p3').withExif(EXIF).withXmp(XMP).withMetadata({ orientation: 6 }).toBuffer();
}

/** A PNG with eXIf, XMP (an iTXt/zTXt chunk) and a P3 profile (iCCP). */
export function pngWithPrivateMetadata(width: number, height: number): Promise<Buffer> {
  return photo(width, height).png().withIccProfile('p3').withExif(EXIF).withXmp(XMP).toBuffer();
}

/** An extended WebP with EXIF and XMP chunks and an ICCP profile. */
export function webpWithPrivateMetadata(width: number, height: number): Promise<Buffer> {
  return photo(width, height).webp().withIccProfile('p3').withExif(EXIF).withXmp(XMP).toBuffer();
}

/** An AVIF with Exif and XMP items. */
export function avifWithPrivateMetadata(width: number, height: number): Promise<Buffer> {
  return photo(width, height).avif({ effort: 0 }).withExif(EXIF).withXmp(XMP).toBuffer();
}

/** An animated GIF with a comment extension and an XMP application extension before its frames. */
export async function gifWithPrivateMetadata(width: number, height: number, frames = 3): Promise<Buffer> {
  const gif = await animatedGif(width, height, frames);
  const packed = gif[10] as number;
  const at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  const subBlocks = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text, 'latin1'), Buffer.from([0])]);
  const comment = Buffer.concat([Buffer.from([0x21, 0xfe]), subBlocks(`${SECRETS.camera} ${SECRETS.note}`)]);
  const xmp = Buffer.concat([Buffer.from([0x21, 0xff, 11]), Buffer.from('XMP DataXMP', 'latin1'), subBlocks(`photoshop:City="${SECRETS.place}"`)]);
  return Buffer.concat([gif.subarray(0, at), comment, xmp, gif.subarray(at)]);
}
