import type { Sharp } from 'sharp';

// A picture's perceptual hash (docs/images.md "What is seen in a picture"): the 64-bit DCT hash
// ("pHash") of the picture flattened on white and shrunk to 32×32 greys, and the same of its mirror
// image. Re-encoding, resizing and mild colour changes keep a hash within PHASH_NEAR bits; a picture
// saved mirrored matches through the other's mirror hash. Stored as signed 64-bit integers (Postgres'
// bigint), so every hash here is a signed bigint.

/** Two pictures whose hashes are at most this many bits apart are taken to be the same picture. */
export const PHASH_NEAR = 8;

/** The side of the grey square the DCT is taken of, and of the low-frequency square kept. */
const SIDE = 32;
const LOW = 8;
/** Frequencies 0 (the mean, left out: it only says how bright) to LOW. */
const FREQUENCIES = LOW + 1;

/** cos((2x + 1) u π / 2N) for the frequencies u of each of the SIDE samples x. */
const COSINES = Array.from({ length: FREQUENCIES }, (_, u) => Float64Array.from({ length: SIDE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIDE))));

export interface PerceptualHashes {
  phash: bigint;
  /** The hash of the mirror image (flipped left to right). */
  mirror: bigint;
}

/**
 * The hashes of a picture, from any sharp pipeline of it (a file, or pixels already decoded). It is
 * flattened on white first: a transparent logo is seen as it shows on the page, and its hidden
 * colours (often black) do not decide the hash.
 */
export async function phashOf(image: Sharp): Promise<PerceptualHashes> {
  const grey = await image.flatten({ background: '#ffffff' }).greyscale().resize({ width: SIDE, height: SIDE, fit: 'fill' }).raw().toBuffer();
  const mirrored = Buffer.alloc(grey.length);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) mirrored[y * SIDE + x] = grey[y * SIDE + (SIDE - 1 - x)] ?? 0;
  }
  return { phash: hashOfGrid(grey), mirror: hashOfGrid(mirrored) };
}

/**
 * The 8×8 lowest frequencies of the grid's DCT but the zeroth (frequencies 1–8 both ways: the mean
 * and the pure horizontal or vertical ramps of brightness say little), each bit set when above
 * their mean: the classic pHash (as sharp-phash computes it).
 */
function hashOfGrid(grey: Buffer): bigint {
  // Separable: rows first (FREQUENCIES coefficients of each row), then columns.
  const rows = new Float64Array(SIDE * FREQUENCIES);
  for (let y = 0; y < SIDE; y++) {
    for (let u = 1; u < FREQUENCIES; u++) {
      const cos = COSINES[u] as Float64Array;
      let sum = 0;
      for (let x = 0; x < SIDE; x++) sum += (grey[y * SIDE + x] ?? 0) * (cos[x] ?? 0);
      rows[y * FREQUENCIES + u] = sum;
    }
  }
  const coefficients = new Float64Array(LOW * LOW);
  let total = 0;
  for (let v = 1; v < FREQUENCIES; v++) {
    const cos = COSINES[v] as Float64Array;
    for (let u = 1; u < FREQUENCIES; u++) {
      let sum = 0;
      for (let y = 0; y < SIDE; y++) sum += (rows[y * FREQUENCIES + u] ?? 0) * (cos[y] ?? 0);
      coefficients[(v - 1) * LOW + (u - 1)] = sum;
      total += sum;
    }
  }
  const mean = total / (LOW * LOW);
  let hash = 0n;
  for (let i = 0; i < LOW * LOW; i++) hash = (hash << 1n) | ((coefficients[i] ?? 0) > mean ? 1n : 0n);
  return BigInt.asIntN(64, hash);
}

/** How many bits two hashes differ in (signed or not: the same 64 bits). */
export function hammingDistance(a: bigint, b: bigint): number {
  let bits = BigInt.asUintN(64, a ^ b);
  let count = 0;
  while (bits) {
    bits &= bits - 1n;
    count += 1;
  }
  return count;
}

/** Whether two pictures are the same picture, one possibly mirrored: either's hash near the other's, or near its mirror's. */
export function looksTheSame(a: PerceptualHashes, b: PerceptualHashes): boolean {
  return hammingDistance(a.phash, b.phash) <= PHASH_NEAR || hammingDistance(a.phash, b.mirror) <= PHASH_NEAR;
}
