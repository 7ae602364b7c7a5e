import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { DEMO_IMAGES_DIR, demoImages } from '../db/demo-catalog.ts';
import { readText, stopTextReading } from '../backend/images/seen/read-text.ts';
import { seePicture } from '../backend/images/seen/see.ts';
import { yieldToUploads } from '../backend/images/see-job.ts';
import { processImage, seeStoredThumbnail } from '../backend/images/process.ts';

// `npm run bench:pictures-seen [-- --cards 20]`: what seeing a picture costs on this machine
// (docs/images.md "What is seen in a picture"), in this process, without a server:
//   1. hashes + palette + colour names per picture, from the 736 px pixels already decoded (as
//      processing an upload does), over the demo pictures;
//   2. OCR per picture over the demo pictures' 736 px thumbnails (no text in them) and over text
//      cards (a few lines of words), median and p95, and how many kept text;
//   3. an upload's processing (the demo files, one every 150 ms) alone, then while the backfill's
//      work runs beside it as the images.see job does it (yield to waiting uploads, see a stored
//      thumbnail, read its text), p50/p95 and the ratio: the backfill must not starve uploads.
// A benchmark: it prints figures and never fails on them.

const { values } = parseArgs({ options: { cards: { type: 'string', default: '20' } } });
const CARDS = Number(values.cards);
const quantile = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;
const figures = (label: string, times: number[]) => console.log(`${label}: ${times.length} pictures, median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`);

const WORDS = ['harbour', 'lemon', 'sunday', 'market', 'garden', 'recipe', 'morning', 'walk', 'bread', 'minutes', 'river', 'paint', 'window', 'orange', 'winter', 'summer'];

async function textCard(i: number): Promise<Buffer> {
  const lines = [0, 1, 2].map((line) => [0, 1, 2].map((word) => WORDS[(i * 7 + line * 3 + word) % WORDS.length]).join(' '));
  const text = await sharp({ text: { text: lines.join('\n'), font: 'DejaVu Sans', fontfile: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', dpi: 180 + (i % 5) * 20, spacing: 16 } })
    .negate()
    .toColourspace('srgb')
    .png()
    .toBuffer();
  return sharp(text).extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#ffffff' }).resize({ width: 736, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}

const files = demoImages().map((image) => path.join(DEMO_IMAGES_DIR, image.file));
const seeing: number[] = [];
const thumbnails: Buffer[] = [];
for (const file of files) {
  const { data, info } = await sharp(file).resize({ width: 736, height: 16_383, fit: 'inside', withoutEnlargement: true }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const started = performance.now();
  await seePicture(() => sharp(data, raw));
  seeing.push(performance.now() - started);
  thumbnails.push(await sharp(data, raw).webp({ quality: 80, effort: 2 }).toBuffer());
}
figures('hashes + palette + names (736 px pixels)', seeing);

// The worker's start is its own figure, not a reading's.
const start = performance.now();
await readText(await textCard(0));
console.log(`OCR worker start and first reading: ${(performance.now() - start).toFixed(0)} ms`);

const demoReadings: number[] = [];
let demoKept = 0;
for (const thumbnail of thumbnails) {
  const reading = await readText(thumbnail);
  demoReadings.push(reading.ms);
  if (reading.text !== null) demoKept += 1;
}
figures(`OCR, demo pictures (${demoKept} kept text)`, demoReadings);

const cardReadings: number[] = [];
let cardKept = 0;
for (let i = 0; i < CARDS; i++) {
  const reading = await readText(await textCard(i));
  cardReadings.push(reading.ms);
  if (reading.text !== null) cardKept += 1;
}
figures(`OCR, text cards (${cardKept} kept text)`, cardReadings);

const UPLOADS = 40;
const uploadBytes = await Promise.all(files.slice(0, UPLOADS).map((file) => readFile(file)));
async function uploads(): Promise<number[]> {
  const times: number[] = [];
  for (const bytes of uploadBytes) {
    const started = performance.now();
    // processImage may rewrite its input in place (metadata removal): a copy each time.
    await processImage(Buffer.from(bytes));
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return times;
}
const alone = await uploads();
const stop = new AbortController();
let backfilled = 0;
const backfill = (async () => {
  for (let i = 0; !stop.signal.aborted; i = (i + 1) % thumbnails.length) {
    const thumbnail = thumbnails[i] as Buffer;
    await yieldToUploads(stop.signal);
    await seeStoredThumbnail(thumbnail);
    await readText(thumbnail);
    backfilled += 1;
  }
})();
const beside = await uploads();
stop.abort();
await backfill;
figures('upload processing alone', alone);
figures(`upload processing beside the backfill (${backfilled} pictures seen and read meanwhile)`, beside);
console.log(`upload p50 ${(quantile(beside, 0.5) / quantile(alone, 0.5)).toFixed(2)}×, p95 ${(quantile(beside, 0.95) / quantile(alone, 0.95)).toFixed(2)}× with the backfill running`);
await stopTextReading();
