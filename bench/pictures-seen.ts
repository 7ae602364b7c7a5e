import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { DEMO_IMAGES_DIR, demoImages } from '../db/demo-catalog.ts';
import { readText, stopTextReading } from '../backend/images/seen/read-text.ts';
import { seePicture } from '../backend/images/seen/see.ts';

// `npm run bench:pictures-seen [-- --cards 20]`: what seeing a picture costs on this machine
// (docs/images.md "What is seen in a picture"), in this process, without a server:
//   1. hashes + palette + colour names per picture, from the 736 px pixels already decoded (as
//      processing an upload does), over the demo pictures;
//   2. OCR per picture over the demo pictures' 736 px thumbnails (no text in them) and over text
//      cards (a few lines of words), median and p95, and how many kept text.
// A benchmark: it prints figures and never fails on them.

const { values } = parseArgs({ options: { cards: { type: 'string', default: '20' } } });
const CARDS = Number(values.cards);
const quantile = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;
const figures = (label: string, times: number[]) =>
  console.log(`${label}: ${times.length} pictures, median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`);

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
await stopTextReading();
