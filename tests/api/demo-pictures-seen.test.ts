import { readdir, readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, describe, expect, test } from 'vitest';
import { hammingDistance, looksTheSame, type PerceptualHashes, PHASH_NEAR, phashOf } from '../../backend/images/seen/phash.ts';
import { readText, stopTextReading, TextReadingTooSlow } from '../../backend/images/seen/read-text.ts';

// The demo pictures as the pictures of a site (docs/images.md "What is seen in a picture"): none
// of them has words, so none is given text; each is found again re-encoded, shrunk, halved and
// mirrored, and two different ones are rarely taken for each other. No database: this suite runs
// once, in the api-postgres project (vite.config.ts).

const DEMO_DIR = new URL('../../db/demo-images/', import.meta.url);

afterAll(stopTextReading);

/** The demo pictures, as the 736 px thumbnail the server reads and hashes. */
async function demoPictures(): Promise<Array<{ name: string; bytes: Buffer }>> {
  const names = (await readdir(DEMO_DIR)).filter((name) => /\.(webp|jpe?g|png)$/.test(name)).sort();
  return Promise.all(names.map(async (name) => ({ name, bytes: await sharp(new URL(name, DEMO_DIR).pathname).resize({ width: 736, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer() })));
}

/** The hashes as the server finds them: of the pixels of the largest thumbnail (backend/images/process.ts). */
async function hashedAsStored(bytes: Buffer): Promise<PerceptualHashes> {
  const { data, info } = await sharp(bytes).resize({ width: 736, height: 16_383, fit: 'inside', withoutEnlargement: true }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return phashOf(sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe('the demo pictures', () => {
  test('none is given text (they have none)', { timeout: 600_000 }, async () => {
    const pictures = await demoPictures();
    expect(pictures.length).toBeGreaterThan(100);
    const times: number[] = [];
    const given: string[] = [];
    const tooSlow: string[] = [];
    for (const { name, bytes } of pictures) {
      try {
        const reading = await readText(bytes);
        times.push(reading.ms);
        if (reading.text !== null) given.push(`${name}: ${JSON.stringify(reading.text)}`);
      } catch (error) {
        // Recorded as read without text by the server (read-text-job.ts): no text either.
        if (!(error instanceof TextReadingTooSlow)) throw error;
        tooSlow.push(name);
      }
    }
    console.log(
      `${pictures.length} demo pictures read for text: ${given.length} given text, ${tooSlow.length} past the deadline (${tooSlow.join(', ')}); OCR median ${percentile(times, 50)} ms, p95 ${percentile(times, 95)} ms, max ${Math.max(...times)} ms`,
    );
    expect(given).toEqual([]);
  });

  test('each is found again re-encoded, shrunk, halved and mirrored; different ones are rarely taken for each other', { timeout: 600_000 }, async () => {
    const names = (await readdir(DEMO_DIR)).filter((name) => /\.(webp|jpe?g|png)$/.test(name)).sort();
    const hashes: PerceptualHashes[] = [];
    const missed: string[] = [];
    const times: number[] = [];
    for (const name of names) {
      const file = new URL(name, DEMO_DIR).pathname;
      const meta = await sharp(file).metadata();
      const started = performance.now();
      const own = await hashedAsStored(await readFile(file));
      times.push(performance.now() - started);
      hashes.push(own);
      // The WebP and PNG copies are written at the encoders' fastest settings (a PNG's pixels are
      // the same at any compression level; the lossy copy to find again is the JPEG): at their
      // defaults, writing them took longer than hashing every copy, in the slowest file of the suites.
      const variants: Record<string, Buffer> = {
        'JPEG q40': await sharp(file).flatten({ background: '#ffffff' }).jpeg({ quality: 40 }).toBuffer(),
        '236 px': await sharp(file).resize({ width: 236 }).webp({ effort: 0 }).toBuffer(),
        'half size': await sharp(file)
          .resize({ width: Math.round(meta.width / 2) })
          .png({ compressionLevel: 1 })
          .toBuffer(),
        mirrored: await sharp(file).flop().webp({ effort: 0 }).toBuffer(),
      };
      for (const [variant, bytes] of Object.entries(variants)) {
        const copy = await hashedAsStored(bytes);
        if (!looksTheSame(own, copy)) missed.push(`${name} ${variant}: ${hammingDistance(own.phash, copy.phash)} / mirror ${hammingDistance(own.phash, copy.mirror)} bits`);
      }
    }
    let pairs = 0;
    let falsePairs = 0;
    for (let i = 0; i < hashes.length; i++) {
      for (let j = i + 1; j < hashes.length; j++) {
        pairs += 1;
        if (looksTheSame(hashes[i] as PerceptualHashes, hashes[j] as PerceptualHashes)) falsePairs += 1;
      }
    }
    console.log(
      `${names.length} demo pictures × 4 copies: ${missed.length} missed; ${falsePairs} of ${pairs} pairs of different pictures within ${PHASH_NEAR} bits; hash median ${percentile(times, 50).toFixed(1)} ms (decoding the file included)`,
    );
    expect(missed).toEqual([]);
    expect(falsePairs).toBeLessThanOrEqual(pairs / 100);
  });
});
