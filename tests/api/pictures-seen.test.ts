import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import type { PinImage } from '../../contract/images.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { ConfigError, loadConfig } from '../../backend/config.ts';
import { hammingDistance, PHASH_NEAR } from '../../backend/images/seen/phash.ts';
import { stopTextReading, workerOptions } from '../../backend/images/seen/read-text.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { useTestServer } from '../support/use-test-server.ts';

// What is seen in a picture (docs/images.md "What is seen in a picture"): its colours are in the
// upload's answer and on its pins at once; its text is read after the answer, then shown on its pins
// and found by search; the backfill sees images stored before. The demo pictures are checked in
// ./demo-pictures-seen.test.ts.

const DEMO_DIR = new URL('../../db/demo-images/', import.meta.url);
/**
 * Text must be on a pin within this: the reader's worker starts, one reading, then a public pin's
 * cached answer (30 s at most: the reading is no pin edit, so nothing drops it sooner), on a loaded
 * CI machine.
 */
const TEXT_BOUND_MS = 90_000;

let client: ApiClient;
const server = useTestServer();
const db = () => server.server.database.db;

beforeAll(async () => {
  ({ client } = await signUpUser(server.url, 'seer'));
});
afterAll(stopTextReading);

/**
 * A card with words on it, as a phone screenshot of a recipe would be (sharp's text renderer: the
 * server refuses SVG in this process).
 */
async function textCard(lines: string[]): Promise<Buffer> {
  // White letters on black, one band: made dark on light, then given a margin of the same light.
  const text = await sharp({ text: { text: lines.join('\n'), font: 'DejaVu Sans', fontfile: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', dpi: 220, spacing: 20 } })
    .negate()
    .toColourspace('srgb')
    .png()
    .toBuffer();
  return sharp(text).extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#ffffff' }).png().toBuffer();
}

/** Left part red, right part blue (shares 0.6 and 0.4). */
function redAndBlue(): Promise<Buffer> {
  return sharp({ create: { width: 500, height: 300, channels: 3, background: '#d62828' } })
    .composite([{ input: { create: { width: 200, height: 300, channels: 3, background: '#1d4ed8' } }, left: 300, top: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function uploaded(bytes: Buffer): Promise<ImageUploaded['image']> {
  const res = await client.upload<ImageUploaded>('/api/images/', { bytes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.image;
}

async function pinOf(image: ImageUploaded['image'], title: string): Promise<Pin> {
  const res = await client.post<Pin>('/api/pins/', { title, imageUrl: image.url, visibility: 'public' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const pinImage = async (id: number): Promise<PinImage | null> => (await client.get<Pin>(`/api/pins/${id}`)).body.image;

describe('colours', () => {
  test('an upload answers its palette and named colours, and its pin shows them', async () => {
    const image = await uploaded(await redAndBlue());
    expect(image.colors).toEqual(['red', 'blue']);
    expect(image.palette.length).toBeGreaterThanOrEqual(2);
    expect(image.palette.length).toBeLessThanOrEqual(5);
    const total = image.palette.reduce((sum, entry) => sum + entry.share, 0);
    expect(total).toBeLessThanOrEqual(1);
    expect(image.palette[0]?.share).toBeGreaterThan(0.5);
    for (const entry of image.palette) expect(entry.hex).toMatch(/^#[0-9a-f]{6}$/);
    // Read at once, nothing to wait for: no text in it is said as null.
    const pin = await pinOf(image, 'Flag colours');
    const shown = await pinImage(pin.id);
    expect(shown?.colors).toEqual(['red', 'blue']);
    expect(shown?.palette).toEqual(image.palette);
  });
});

describe('text in a picture', () => {
  test('is read after the upload is answered, shown on its pin and found by search', { timeout: 180_000 }, async () => {
    const image = await uploaded(await textCard(['Grandma lemon drizzle', 'Bake forty minutes', 'then dust with sugar']));
    // The answer does not wait for the reading.
    expect(image.text).toBeNull();
    const pin = await pinOf(image, 'A recipe card');
    const started = Date.now();
    const shown = await eventually(
      () => pinImage(pin.id),
      (value) => Boolean(value?.text),
      { boundMs: TEXT_BOUND_MS, intervalMs: 250 },
    );
    console.log(`text read and on its pin after ${Date.now() - started} ms: ${JSON.stringify(shown?.text)}`);
    expect(shown?.text?.toLowerCase()).toContain('lemon drizzle');
    expect(shown?.text?.toLowerCase()).toContain('forty minutes');
    const found = await client.get<PinList>('/api/search?q=drizzle');
    expect(found.status).toBe(200);
    expect(found.body.pins.map((p) => p.id)).toContain(pin.id);
  });

  test('the reader fetches nothing: its worker, core and language data are files in node_modules, with no cache', async () => {
    const options = await workerOptions();
    expect(options.cacheMethod).toBe('none');
    for (const value of Object.values(options)) if (typeof value === 'string') expect(value).not.toMatch(/^[a-z]+:\/\//);
    expect(existsSync(options.workerPath ?? '')).toBe(true);
    expect(options.workerPath).toContain('/node_modules/tesseract.js/');
    expect(options.langPath).toContain('/node_modules/@tesseract.js-data/eng/');
    expect(statSync(`${options.langPath}/eng.traineddata.gz`).size).toBeGreaterThan(1_000_000);
  });

  test('OCR_LANGS takes only installed languages', () => {
    expect(loadConfig({ OCR_LANGS: 'eng' }).ocr.langs).toEqual(['eng']);
    expect(loadConfig({}).ocr.langs).toEqual(['eng']);
    expect(() => loadConfig({ OCR_LANGS: 'eng+kli' })).toThrow(ConfigError);
    expect(() => loadConfig({ OCR_LANGS: 'eng+kli' })).toThrow(/OCR_LANGS: no language data installed for kli/);
    expect(() => loadConfig({ OCR_LANGS: 'https://cdn.example/eng' })).toThrow(/OCR_LANGS/);
  });
});

describe('the images.see backfill', () => {
  test('sees images stored before (hashes, colours, text) and their pins take them', { timeout: 300_000 }, async () => {
    const card = await uploaded(await textCard(['Saffron harbour walk', 'Sunday at nine', 'meet by the lighthouse']));
    const acorn = await uploaded(await readFile(new URL('acorn.webp', DEMO_DIR)));
    const cardPin = await pinOf(card, 'Walk notice');
    const acornPin = await pinOf(acorn, 'An acorn');
    // Its own reading done first, so the backfill's is the only one left.
    await eventually(
      () => pinImage(cardPin.id),
      (value) => Boolean(value?.text),
      { boundMs: TEXT_BOUND_MS, intervalMs: 250 },
    );
    const keys = [card, acorn].map((image) => /\/([0-9a-f]{64})\./.exec(image.url)?.[1] ?? '');
    const before = await db().selectFrom('images').select(['sha256', 'phash', 'phash_mirror', 'colors']).where('sha256', 'in', keys).orderBy('sha256').execute();
    expect(before).toHaveLength(2);
    // As they were stored before pictures were seen.
    await db().updateTable('images').set({ phash: null, phash_mirror: null, palette: '[]', colors: [], text: null, seen_at: null, text_read_at: null }).where('sha256', 'in', keys).execute();
    // The pins' copies follow their image (the trigger).
    const copies = await db().selectFrom('pins').select(['id', 'image_text', 'colors']).where('id', 'in', [cardPin.id, acornPin.id]).execute();
    expect(copies.map((pin) => [pin.image_text, pin.colors])).toEqual([
      [null, []],
      [null, []],
    ]);

    const started = Date.now();
    await server.server.jobs.send(db(), 'images.see', {});
    const after = await eventually(
      () => db().selectFrom('images').select(['sha256', 'phash', 'phash_mirror', 'colors', 'seen_at', 'text_read_at', 'text']).where('sha256', 'in', keys).orderBy('sha256').execute(),
      (rows) => rows.every((row) => row.seen_at && row.text_read_at),
      { boundMs: TEXT_BOUND_MS, intervalMs: 250 },
    );
    console.log(`backfill saw 2 images after ${Date.now() - started} ms`);
    // The stored 736 px thumbnail gives the same hashes, near enough, and the same colours.
    for (const [i, row] of after.entries()) {
      const old = before[i];
      expect(row.colors).toEqual(old?.colors);
      expect(hammingDistance(BigInt(row.phash ?? 0), BigInt(old?.phash ?? 1))).toBeLessThanOrEqual(PHASH_NEAR);
    }
    const acornShown = await eventually(
      () => pinImage(acornPin.id),
      (value) => Boolean(value?.colors.length),
      { boundMs: TEXT_BOUND_MS, intervalMs: 500 },
    );
    expect(acornShown?.colors).toEqual(before.find((row) => row.sha256 === keys[1])?.colors);
    const cardShown = await eventually(
      () => pinImage(cardPin.id),
      (value) => Boolean(value?.text),
      { boundMs: TEXT_BOUND_MS, intervalMs: 500 },
    );
    expect(cardShown?.text?.toLowerCase()).toContain('harbour walk');
    const found = await client.get<PinList>('/api/search?q=saffron');
    expect(found.body.pins.map((p) => p.id)).toContain(cardPin.id);
  });
});
