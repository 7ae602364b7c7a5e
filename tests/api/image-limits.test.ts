import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { jpeg, pngBomb } from '../support/image-fixtures.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

// What an image may cost is decided from its header before anything is decoded (pixels, longest
// side, shape), every image has a processing deadline, libvips' other decoders are never reached,
// and uploads and imports by URL draw on one per-user image budget.

let origin: Server;
let originUrl: string;
let photo: Buffer;

beforeAll(async () => {
  photo = await jpeg(200, 150);
  origin = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

async function expectRefused(client: ApiClient, bytes: Buffer, message: string, type = 'image/png'): Promise<void> {
  const started = performance.now();
  const res = await client.upload<ErrorBody>('/api/images/', { bytes, type });
  console.log(`${message}: answered ${res.status} in ${Math.round(performance.now() - started)} ms`);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ message, errors: [message], fields: { file: message } });
}

/** A tiny AVIF whose header claims width × height (its `ispe` box rewritten): nothing beyond the header is needed to refuse it. */
async function avifClaiming(width: number, height: number): Promise<Buffer> {
  const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#369' } })
    .avif({ effort: 0 })
    .toBuffer();
  const at = small.indexOf('ispe');
  small.writeUInt32BE(width, at + 8);
  small.writeUInt32BE(height, at + 12);
  return small;
}

describe('refused from the header, before decoding', () => {
  let client: ApiClient;
  const server = useTestServer();
  beforeAll(async () => {
    ({ client } = await signUpUser(server.url, 'limits'));
  });

  test('a 1 × 40,000,000 PNG (a few hundred bytes) → 400 longest side', async () => {
    const line = pngBomb(1, 40_000_000);
    expect(line.length).toBeLessThan(1_000);
    await expectRefused(client, line, 'Images can be at most 16,384 pixels wide or tall.');
  });

  test('a 1 × 99,000,000 PNG → 400 megapixels', async () => {
    await expectRefused(client, pngBomb(1, 99_000_000), 'Images can be at most 50 megapixels.');
  });

  test('a 16,000 × 200 PNG → 400 shape (long side over 20 × the short one)', async () => {
    await expectRefused(client, pngBomb(16_000, 200), "An image's long side can be at most 20 times its short side.");
  });

  test('a 288-byte AVIF claiming 10,000 × 10,000 → 400 megapixels', async () => {
    await expectRefused(client, await avifClaiming(10_000, 10_000), 'Images can be at most 50 megapixels.', 'image/avif');
  });

  test('SVG and PDF sent with a permitted name and type → 400 "That file is not an image."', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><rect width="4000" height="4000"/></svg>');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    for (const [bytes, name, type] of [
      [svg, 'photo.jpg', 'image/jpeg'],
      [pdf, 'photo.png', 'image/png'],
    ] as const) {
      const res = await client.upload<ErrorBody>('/api/images/', { bytes, name, type });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('That file is not an image.');
    }
  });

  test('libvips itself refuses SVG, PDF and TIFF once the image pipeline is loaded (its other loaders are blocked)', async () => {
    await import('../../backend/images/process.ts');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expect(sharp(svg).metadata()).rejects.toThrow(/unsupported image format/);
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
      .tiff()
      .toBuffer();
    await expect(sharp(tiff).metadata()).rejects.toThrow(/unsupported image format/);
    // The five stored formats still load.
    expect((await sharp(await jpeg(8, 8)).metadata()).format).toBe('jpeg');
  });
});

test('an image that outlasts IMAGE_PROCESS_TIMEOUT_SECONDS → 400 "That image takes too long to process."', { timeout: 120_000 }, async () => {
  await withTestServer({ env: { IMAGE_PROCESS_TIMEOUT_SECONDS: '1' } }, async (server) => {
    const { client } = await signUpUser(server.url, 'slowimage');
    // 49 megapixels of AV1: a 1.5 KB file whose decode takes seconds.
    const heavy = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#369' } })
      .avif({ effort: 0 })
      .toBuffer();
    await expectRefused(client, heavy, 'That image takes too long to process.', 'image/avif');
  });
});

test('uploads and imports by URL draw on one image budget per user (429 with Retry-After past it)', async () => {
  const port = new URL(originUrl).port;
  await withTestServer({ env: { IMAGE_BUDGET_PER_USER: '3', FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: port } }, async (server) => {
    const { client } = await signUpUser(server.url, 'budget');
    for (const size of [40, 41]) expect((await client.upload('/api/images/', { bytes: await jpeg(size, 30) })).status).toBe(201);
    const pin = await client.post<Pin>('/api/pins/', { title: 'Imported', imageUrl: `${originUrl}/photo.jpg` });
    expect(pin.status).toBe(201);
    const started = Date.now();
    for (;;) {
      if ((await client.get<Pin>(`/api/pins/${pin.body.id}`)).body.image) break;
      if (Date.now() - started > 60_000) throw new Error('the import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const refused = await client.upload<ErrorBody>('/api/images/', { bytes: await jpeg(42, 30) });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('You have added a lot of images recently. Please wait, then try again.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user's budget is their own.
    const { client: other } = await signUpUser(server.url, 'budget2');
    expect((await other.upload('/api/images/', { bytes: await jpeg(43, 30) })).status).toBe(201);
  });
});
