import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../backend/config.ts';
import { mediaKey } from '../../backend/images/media-urls.ts';
import { S3MediaStorage } from '../../backend/images/s3-storage.ts';
import { createMediaStorage } from '../../backend/images/create-storage.ts';
import { LocalMediaStorage } from '../../backend/images/local-storage.ts';
import type { MediaStorage, MediaStream } from '../../backend/images/storage.ts';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import { signUpUser } from '../support/client.ts';
import { type FakeS3, startFakeS3 } from '../support/fake-s3.ts';
import { jpeg, pngWithAlpha } from '../support/image-fixtures.ts';
import { withTestServer } from '../support/use-test-server.ts';

// The MediaStorage contract, for both drivers: the local folder, and S3 — against s3rver, a fake
// S3 server (no real S3 runs here; see tests/support/fake-s3.ts). Then the whole upload path with
// a bucket configured.

const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

let fakeS3: FakeS3;
let localDir: string;
beforeAll(async () => {
  fakeS3 = await startFakeS3();
  localDir = await mkdtemp(path.join(tmpdir(), 'pinboard-media-contract-'));
});
afterAll(async () => {
  await fakeS3?.stop();
  if (localDir) await rm(localDir, { recursive: true, force: true });
});

const drivers: Array<[string, () => Promise<MediaStorage>]> = [
  ['local folder', () => createMediaStorage({ kind: 'local', dir: localDir })],
  [
    'S3 (s3rver)',
    async () => {
      const config = loadConfig(fakeS3.env).media;
      const storage = await createMediaStorage(config);
      expect(storage).toBeInstanceOf(S3MediaStorage);
      return storage;
    },
  ],
];

describe.each(drivers)('MediaStorage: %s', (_name, create) => {
  let storage: MediaStorage;
  beforeAll(async () => {
    storage = await create();
  });

  test('put, then stat, exists and get give back the same bytes, size and type', async () => {
    const bytes = await jpeg(64, 48);
    const key = mediaKey(sha(`${_name} original`), { original: 'jpeg' });
    expect(await storage.exists(key)).toBe(false);
    await storage.put(key, bytes, 'image/jpeg');
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.stat(key)).toEqual({ size: bytes.length, contentType: 'image/jpeg' });
    const file = await storage.get(key);
    expect(file).toMatchObject({ size: bytes.length, contentType: 'image/jpeg' });
    expect((await buffer((file as MediaStream).body)).equals(bytes)).toBe(true);
  });

  test('a thumbnail key is WebP', async () => {
    const key = mediaKey(sha(`${_name} thumb`), { width: 236 });
    await storage.put(key, Buffer.from('webp bytes'), 'image/webp');
    const file = await storage.get(key);
    expect(file?.contentType).toBe('image/webp');
    expect(await text((file as MediaStream).body)).toBe('webp bytes');
  });

  test('a missing key: stat and get give undefined, exists false', async () => {
    const key = mediaKey(sha(`${_name} missing`), { width: 736 });
    expect(await storage.stat(key)).toBeUndefined();
    expect(await storage.get(key)).toBeUndefined();
    expect(await storage.exists(key)).toBe(false);
  });

  test('the same key written again, and several times at once, holds the bytes whole', async () => {
    const bytes = await pngWithAlpha(300, 200);
    const key = mediaKey(sha(`${_name} again`), { original: 'png' });
    await storage.put(key, bytes, 'image/png');
    await Promise.all([1, 2, 3, 4].map(() => storage.put(key, bytes, 'image/png')));
    expect(await storage.stat(key)).toEqual({ size: bytes.length, contentType: 'image/png' });
  });

  test('delete removes the file; deleting a missing one is no error', async () => {
    const key = mediaKey(sha(`${_name} delete`), { original: 'jpeg' });
    await storage.put(key, await jpeg(20, 20), 'image/jpeg');
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  test('anything but a media key is refused, never used as a path or object name', async () => {
    const good = sha(`${_name} bad keys`);
    const bad = [
      '../../etc/passwd',
      `${good.slice(0, 2)}/../${good}.jpg`,
      `/${good.slice(0, 2)}/${good}.jpg`,
      `${good.slice(0, 2)}/${good}.svg`,
      `${good.slice(0, 2)}/${good}.jpg.tmp`,
      `zz/${good}.jpg`,
      good,
      '',
    ];
    for (const key of bad) {
      await expect(storage.put(key, Buffer.from('x'), 'image/jpeg'), key).rejects.toThrow(/Not a media key/);
      await expect(storage.get(key), key).rejects.toThrow(/Not a media key/);
      await expect(storage.stat(key), key).rejects.toThrow(/Not a media key/);
      await expect(storage.delete(key), key).rejects.toThrow(/Not a media key/);
    }
    // A key's type is its extension's: a PNG key is not stored as anything else.
    await expect(storage.put(mediaKey(good, { original: 'png' }), Buffer.from('x'), 'text/html')).rejects.toThrow(/image\/png/);
  });
});

describe('the local folder', () => {
  test('leaves no temporary files behind, and refuses to start on a folder it cannot write', async () => {
    const storage = new LocalMediaStorage(localDir);
    const key = mediaKey(sha('tmp check'), { original: 'jpeg' });
    await storage.put(key, await jpeg(20, 20), 'image/jpeg');
    const files = await readdir(localDir, { recursive: true });
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // A file where the folder should be: start-up fails instead of the first upload.
    const blocked = path.join(localDir, key);
    await expect(createMediaStorage({ kind: 'local', dir: blocked })).rejects.toThrow();
  });
});

test('configuration: S3 settings need a bucket; keys go in pairs; the default is ./data/media', () => {
  expect(loadConfig({}).media).toEqual({ kind: 'local', dir: './data/media' });
  expect(loadConfig({ MEDIA_DIR: '/srv/media' }).media).toEqual({ kind: 'local', dir: '/srv/media' });
  expect(() => loadConfig({ S3_ENDPOINT: 'http://s3.local:9000' })).toThrow(/S3_ENDPOINT set without S3_BUCKET/);
  expect(() => loadConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'a' })).toThrow(/S3_SECRET_ACCESS_KEY/);
  expect(() => loadConfig({ S3_BUCKET: 'Not A Bucket' })).toThrow(/S3_BUCKET/);
  expect(() => loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  expect(loadConfig({ S3_BUCKET: 'media' }).media).toEqual({
    kind: 's3',
    bucket: 'media',
    endpoint: undefined,
    region: 'us-east-1',
    credentials: undefined,
    forcePathStyle: false,
  });
  expect(loadConfig(fakeS3.env).media).toMatchObject({ kind: 's3', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});

test('with a bucket configured, an upload is stored in it and served from /media/', async () => {
  await withTestServer({ env: fakeS3.env }, async (server) => {
    expect(server.server.media).toBeInstanceOf(S3MediaStorage);
    const { client } = await signUpUser(server.url, 's3upload');
    const bytes = await jpeg(900, 600);
    const res = await client.upload<ImageUploaded>('/api/images/', { bytes, name: 'photo.jpg' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.image).toMatchObject({ width: 900, height: 600 });
    const original = await fetch(server.url + res.body.image.url);
    expect(original.status).toBe(200);
    // Not on a public pin yet: the uploader's browser's alone (docs/who-sees-what.md).
    expect(original.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(Buffer.from(await original.arrayBuffer()).equals(bytes)).toBe(true);
    const thumbnail = await fetch(server.url + res.body.image.thumbnails['736']);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    // In the bucket itself, under the same key.
    const key = res.body.image.thumbnails['236'].replace('/media/', '');
    expect(await server.server.media.exists(key)).toBe(true);
  });
});
