import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { StoredImage } from '../../contract/images.ts';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import type { Pin } from '../../contract/pins.ts';
import { sweepImages } from '../../backend/images/sweep.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Stored images no pin uses are deleted after a grace period (backend/images/sweep.ts), rows and
// files, on the real server and database; every image a pin uses stays.

let client: ApiClient;

const server = useTestServer();
beforeAll(async () => {
  ({ client } = await signUpUser(server.url, 'sweep'));
});

const db = () => server.server.database.db;
const sweep = (graceHours: number) => sweepImages({ db: db(), storage: server.server.media }, graceHours);
let size = 40;

/** Uploads a picture never stored before (each call a new size, so new bytes). */
async function uploadNew(): Promise<{ image: StoredImage; bytes: Buffer }> {
  size += 1;
  const bytes = await jpeg(size, size);
  return { image: await upload(bytes), bytes };
}

async function upload(bytes: Buffer): Promise<StoredImage> {
  const res = await client.upload<ImageUploaded>('/api/images/', { bytes, name: 'picture.jpg', type: 'image/jpeg' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.image;
}

async function pinOf(image: StoredImage): Promise<number> {
  const res = await client.post<Pin>('/api/pins/', { title: 'Pinned upload', imageUrl: image.url, description: '' });
  expect(res.status).toBe(201);
  expect(res.body.image).not.toBeNull();
  return res.body.id;
}

/** The image's key: the SHA-256 its URLs are named by. */
const shaOf = (image: StoredImage): string => /([0-9a-f]{64})/.exec(image.url)?.[1] ?? '';

/** What a visitor gets: the original and both thumbnails served, and whether the row is there. */
async function stored(image: StoredImage): Promise<{ row: boolean; served: number[] }> {
  const sha256 = shaOf(image);
  const row = await db().selectFrom('images').select('sha256').where('sha256', '=', sha256).executeTakeFirst();
  const urls = [image.url, ...Object.values(image.thumbnails)];
  const served = await Promise.all(urls.map(async (url) => (await fetch(server.url + url)).status));
  return { row: row !== undefined, served };
}
const KEPT = { row: true, served: [200, 200, 200] };
const GONE = { row: false, served: [404, 404, 404] };

/** Makes an image look unused for two days (as if uploaded then, or its last pin deleted then). */
async function unusedFor48Hours(image: StoredImage): Promise<void> {
  const sha256 = shaOf(image);
  await db()
    .updateTable('images')
    .set({ unreferenced_since: sql<Date>`now() - interval '48 hours'` })
    .where('sha256', '=', sha256)
    .execute();
}

describe('the image sweep', () => {
  test('an upload nobody pinned: kept through its grace period, then deleted, row and files', async () => {
    const { image } = await uploadNew();
    await sweep(24);
    expect(await stored(image)).toEqual(KEPT);
    await unusedFor48Hours(image);
    expect(await sweep(24)).toBeGreaterThanOrEqual(1);
    expect(await stored(image)).toEqual(GONE);
    // No file of it left in the media folder either (a local folder in these tests).
    const sha256 = shaOf(image);
    const left = await readdir(path.join(server.mediaDir as string, sha256.slice(0, 2))).catch(() => []);
    expect(left.filter((name) => name.includes(sha256))).toEqual([]);
  });

  test('an image a pin uses is never deleted; once its last pin is deleted it is', async () => {
    const { image } = await uploadNew();
    const first = await pinOf(image);
    const second = await pinOf(image);
    await sweep(0);
    expect(await stored(image)).toEqual(KEPT);
    expect((await client.delete(`/api/pins/${first}`)).status).toBe(200);
    await sweep(0);
    expect(await stored(image)).toEqual(KEPT); // the second pin still uses it
    expect((await client.delete(`/api/pins/${second}`)).status).toBe(200);
    await sweep(0);
    expect(await stored(image)).toEqual(GONE);
  });

  test('the same bytes uploaded again start the grace period over; after a sweep they are stored anew', async () => {
    const { image, bytes } = await uploadNew();
    await unusedFor48Hours(image);
    expect(await upload(bytes)).toEqual(image);
    await sweep(24);
    expect(await stored(image)).toEqual(KEPT);
    await unusedFor48Hours(image);
    await sweep(24);
    expect(await stored(image)).toEqual(GONE);
    expect(await upload(bytes)).toEqual(image);
    expect(await stored(image)).toEqual(KEPT);
    // And a pin made of it now keeps it.
    await pinOf(image);
    await unusedFor48Hours(image);
    await sweep(0);
    expect(await stored(image)).toEqual(KEPT);
  });

  test('a pin that gains the image later (as an import does) clears its mark; one that drops it marks it', async () => {
    const { image } = await uploadNew();
    const sha256 = shaOf(image);
    const mark = async () => (await db().selectFrom('images').select('unreferenced_since').where('sha256', '=', sha256).executeTakeFirstOrThrow()).unreferenced_since;
    expect(await mark()).not.toBeNull(); // uploaded, no pin yet
    const remote = await client.post<Pin>('/api/pins/', { title: 'Remote first', imageUrl: 'https://images.does-not-exist.invalid/a.jpg', description: '' });
    expect(remote.status).toBe(201);
    await db().updateTable('pins').set({ image_sha256: sha256 }).where('id', '=', remote.body.id).execute();
    expect(await mark()).toBeNull();
    await db().updateTable('pins').set({ image_sha256: null }).where('id', '=', remote.body.id).execute();
    expect(await mark()).not.toBeNull();
  });

  test('a mark on an image a pin uses (a race with a new pin) is cleared, not acted on', async () => {
    const { image } = await uploadNew();
    await pinOf(image);
    await unusedFor48Hours(image);
    // The sweep skips a row another transaction holds (the picture jobs write the image's facts
    // after an upload): a later sweep takes it.
    const sha256 = shaOf(image);
    const mark = async () => {
      await sweep(24);
      return (await db().selectFrom('images').select('unreferenced_since').where('sha256', '=', sha256).executeTakeFirstOrThrow()).unreferenced_since;
    };
    expect(await eventually(mark, (since) => since === null)).toBeNull();
    expect(await stored(image)).toEqual(KEPT);
  });

  test('uploads of the same bytes racing the sweep: whenever the row is there, so are its files', async () => {
    const { image, bytes } = await uploadNew();
    for (let round = 0; round < 5; round++) {
      await unusedFor48Hours(image);
      await Promise.all([sweep(24), upload(bytes)]);
      const now = await stored(image);
      if (now.row) expect(now).toEqual(KEPT);
      else expect(now).toEqual(GONE);
    }
  });
});
