import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import { mediaKey } from '../../backend/images/media-urls.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { avifWithPrivateMetadata, describeImage, gifWithPrivateMetadata, jpegWithPrivateMetadata, pngWithPrivateMetadata, SECRETS, webpWithPrivateMetadata } from '../support/image-fixtures.ts';

// A stored original tells nobody where, when or with what it was taken: EXIF (GPS, camera, time),
// XMP, IPTC and comments are gone from what is stored and served, the orientation is applied, the
// colour profile kept, and the key is the hash of what is stored. Originals stored before are
// rewritten by the images.strip-metadata job, at the same URL.

const EVENTUALLY_MS = 60_000;

let client: ApiClient;

const server = useTestServer();
beforeAll(async () => {
  ({ client } = await signUpUser(server.url, 'private'));
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function served(url: string): Promise<Buffer> {
  const response = await fetch(server.url + url);
  expect(response.status, url).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Uploads `bytes` and answers the stored original, checked clean of every secret and keyed by its own hash. */
async function storedOriginal(bytes: Buffer, type: string): Promise<{ image: ImageUploaded['image']; stored: Buffer }> {
  expect(bytes.includes(SECRETS.camera) || bytes.includes(SECRETS.place)).toBe(true);
  const res = await client.upload<ImageUploaded>('/api/images/', { bytes, type });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const stored = await served(res.body.image.url);
  for (const secret of Object.values(SECRETS)) expect(stored.includes(secret), secret).toBe(false);
  const meta = await describeImage(stored);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(res.body.image.url).toContain(sha256(stored));
  return { image: res.body.image, stored };
}

describe('uploads are stored without their metadata', () => {
  test('a phone JPEG (GPS, camera and time in EXIF, a place in XMP, orientation 6, a P3 profile) is stored upright, with its profile and nothing else', async () => {
    const original = await jpegWithPrivateMetadata(300, 200);
    const source = await describeImage(original);
    expect(source.exif).toBeDefined();
    expect(source.orientation).toBe(6);
    const { image, stored } = await storedOriginal(original, 'image/jpeg');
    const meta = await describeImage(stored);
    // Turned: the pixels are upright, with no orientation left to apply.
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.orientation ?? 1).toBe(1);
    expect(image).toMatchObject({ width: 200, height: 300 });
    expect(meta.icc?.equals(source.icc as Buffer)).toBe(true);
  });

  test('a PNG (eXIf, XMP, a P3 profile) keeps its pixels byte for byte and its iCCP chunk', async () => {
    const original = await pngWithPrivateMetadata(120, 80);
    const { stored } = await storedOriginal(original, 'image/png');
    const meta = await describeImage(stored);
    expect(meta.icc?.equals((await describeImage(original)).icc as Buffer)).toBe(true);
    const pixels = async (bytes: Buffer) => (await import('sharp')).default(bytes).raw().toBuffer();
    expect((await pixels(stored)).equals(await pixels(original))).toBe(true);
    expect(stored.includes('eXIf')).toBe(false);
    expect(stored.includes('iCCP')).toBe(true);
  });

  test('a WebP (EXIF and XMP chunks, an ICC profile) loses both chunks and their flags, keeps ICCP', async () => {
    const original = await webpWithPrivateMetadata(120, 80);
    const { stored } = await storedOriginal(original, 'image/webp');
    expect(stored.includes('EXIF')).toBe(false);
    expect(stored.includes('ICCP')).toBe(true);
    expect(stored.length).toBeLessThan(original.length);
  });

  test('an animated GIF loses its comment and its XMP block, and keeps every frame', async () => {
    const original = await gifWithPrivateMetadata(60, 40, 3);
    const { stored } = await storedOriginal(original, 'image/gif');
    expect((await describeImage(stored)).pages).toBe(3);
    expect(stored.includes('NETSCAPE2.0')).toBe(true);
  });

  test('an AVIF with Exif and XMP items is stored without them', async () => {
    await storedOriginal(await avifWithPrivateMetadata(120, 80), 'image/avif');
  });

  test('the same file sent again is answered from its row, at the same URL', async () => {
    const original = await jpegWithPrivateMetadata(160, 90);
    const first = await client.upload<ImageUploaded>('/api/images/', { bytes: original });
    const again = await client.upload<ImageUploaded>('/api/images/', { bytes: original });
    expect(again.body).toEqual(first.body);
  });
});

describe('originals stored before: the images.strip-metadata job', () => {
  test('rewrites each in place (same URL, no metadata), once; the same file uploaded again is answered with it', async () => {
    const db = server.server.database.db;
    const original = await jpegWithPrivateMetadata(240, 160);
    // Stored as the pipeline used to: the file as received, keyed by its hash, marked not stripped.
    const oldSha = sha256(original);
    const thumbnail = await (await import('sharp')).default(original).resize(236).webp().toBuffer();
    await server.server.media.put(mediaKey(oldSha, { original: 'jpeg' }), original, 'image/jpeg');
    for (const width of [236, 736] as const) await server.server.media.put(mediaKey(oldSha, { width }), thumbnail, 'image/webp');
    await db.insertInto('images').values({ sha256: oldSha, format: 'jpeg', bytes: original.length, width: 160, height: 240, placeholder: 'AAAA', metadata_stripped: false }).execute();
    const url = `/media/${mediaKey(oldSha, { original: 'jpeg' })}`;
    expect((await served(url)).includes(SECRETS.camera)).toBe(true);

    await server.server.jobs.send(db, 'images.strip-metadata', {});
    const started = Date.now();
    for (;;) {
      const row = await db.selectFrom('images').select(['metadata_stripped', 'bytes', 'source_sha256']).where('sha256', '=', oldSha).executeTakeFirstOrThrow();
      if (row.metadata_stripped) {
        expect(row.source_sha256).toBe(oldSha);
        break;
      }
      if (Date.now() - started > EVENTUALLY_MS) throw new Error('the strip job did not run');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`legacy original rewritten after ${Date.now() - started} ms`);
    const rewritten = await served(url);
    for (const secret of Object.values(SECRETS)) expect(rewritten.includes(secret), secret).toBe(false);
    const meta = await describeImage(rewritten);
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([160, 240]);

    // Run again: nothing left to do, the file is not touched.
    await server.server.jobs.send(db, 'images.strip-metadata', {});
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await served(url)).equals(rewritten)).toBe(true);

    // The same photo uploaded again is the row it was stored as.
    const again = await client.upload<ImageUploaded>('/api/images/', { bytes: original });
    expect(again.status).toBe(201);
    expect(again.body.image.url).toBe(url);
  });
});
