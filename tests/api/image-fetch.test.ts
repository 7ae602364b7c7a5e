import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { queueFetches } from '../../backend/pins/image-fetch-job.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { describeImage, jpeg } from '../support/image-fixtures.ts';
import { type ServerView } from '../support/server.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';
import { eventually } from '../support/eventually.ts';

// Fetching a pin's picture by URL (docs/images.md): a pin created with a remote image is saved at once, then a
// background job fetches the image through the SSRF guard, stores it through the upload pipeline
// and points the pin at it (`pin.updated` goes out). Refusals leave the pin as it was. The remote
// site is a local server, allowed explicitly (FETCH_ALLOW_CIDRS/PORTS) where a test needs a
// successful fetch.

let origin: Server;
let originUrl: string;
const requests: string[] = [];
let photo: Buffer;

beforeAll(async () => {
  photo = await jpeg(1600, 1000);
  origin = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    else if (req.url === '/notes.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('just some text, not a picture');
    else if (req.url === '/gone.jpg') res.writeHead(404).end();
    else if (req.url === '/to-private.jpg') res.writeHead(302, { location: 'http://10.255.255.1/secret.jpg' }).end();
    else res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

/** The fetch jobs' states, as pg-boss keeps them. */
async function fetchStates(server: ServerView): Promise<string[]> {
  const { rows } = await sql<{ state: string }>`select state from pgboss.job where name = 'image.fetch' order by created_on`.execute(server.server.database.db);
  return rows.map((row) => row.state);
}

describe('with the origin allowed', () => {
  let client: ApiClient;
  const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(originUrl).port } }));
  beforeAll(async () => {
    ({ client } = await signUpUser(server.url, 'importer'));
  });

  test('the pin is saved at once with its remote address, then gains its stored image and pin.updated goes out', async () => {
    const updates: Pin[] = [];
    server.server.events.onChange('pin:updated', ({ pin }) => void updates.push(pin));
    const started = performance.now();
    const created = await client.post<Pin>('/api/pins/', { title: 'Imported', imageUrl: `${originUrl}/photo.jpg`, description: '' });
    expect(created.status).toBe(201);
    expect(created.body.image).toBeNull();
    expect(created.body.image_url).toBe(`${originUrl}/photo.jpg`);

    const pin = await eventually(
      async () => (await client.get<Pin>(`/api/pins/${created.body.id}`)).body,
      (p) => p.image !== null,
    );
    console.log(`fetch done after ${Math.round(performance.now() - started)} ms`);
    expect(pin.image).toMatchObject({ width: 1600, height: 1000 });
    expect(pin.image?.placeholder).toMatch(/^[A-Za-z0-9+/=]{10,}$/);
    expect(pin.image_url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg$/);
    // The photo has no metadata to remove: stored byte for byte.
    const original = await fetch(new URL(pin.image_url, server.url));
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);
    const small = await fetch(new URL(pin.image?.thumbnails['236'] as string, server.url));
    expect(small.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await describeImage(Buffer.from(await small.arrayBuffer()))).toMatchObject({ format: 'webp', width: 236 });
    await eventually(
      async () => updates.find((u) => u.id === pin.id && u.image !== null),
      (found) => found !== undefined,
    );
  });

  test('a pin made from an uploaded file has its image from the start, with no fetch job', async () => {
    const before = (await fetchStates(server)).length;
    const uploaded = await client.upload<{ image: { url: string } }>('/api/images/', { bytes: await jpeg(640, 480), name: 'mine.jpg', type: 'image/jpeg' });
    expect(uploaded.status).toBe(201);
    const created = await client.post<Pin>('/api/pins/', { title: 'Uploaded', imageUrl: uploaded.body.image.url, description: '' });
    expect(created.status).toBe(201);
    expect(created.body.image).toMatchObject({ width: 640, height: 480 });
    expect((await fetchStates(server)).length).toBe(before);
  });

  test('an address that serves no image, or a 404, leaves the pin as it was; the job ends without retrying', async () => {
    for (const file of ['notes.jpg', 'gone.jpg']) {
      const created = await client.post<Pin>('/api/pins/', { title: file, imageUrl: `${originUrl}/${file}`, description: '' });
      expect(created.status).toBe(201);
      await eventually(
        () => fetchStates(server),
        (states) => !states.some((state) => state === 'created' || state === 'active' || state === 'retry'),
      );
      const pin = (await client.get<Pin>(`/api/pins/${created.body.id}`)).body;
      expect(pin.image).toBeNull();
      expect(pin.image_url).toBe(`${originUrl}/${file}`);
      expect(requests.filter((url) => url === `/${file}`)).toHaveLength(1);
    }
  });

  test('an address that redirects to a private one: the fetch is refused and no viewer is sent there any more', async () => {
    const updates: Pin[] = [];
    // Without a picture the pin is its owner's until it has one (docs/who-sees-what.md): for the
    // others it is deleted, its owner gets it again without the address.
    server.server.events.onChange('pin:created', ({ pin }) => void updates.push(pin));
    const url = `${originUrl}/to-private.jpg`;
    const created = await client.post<Pin>('/api/pins/', { title: 'Sneaky', imageUrl: url, description: '' });
    expect(created.status).toBe(201);
    const pin = await eventually(
      async () => (await client.get<Pin>(`/api/pins/${created.body.id}`)).body,
      (p) => p.image_url !== url,
    );
    expect(pin.image_url).toBe('');
    expect(pin.image).toBeNull();
    expect((await new ApiClient(server.url).get<Pin>(`/api/pins/${created.body.id}`)).status).toBe(404);
    await eventually(
      async () => updates.find((u) => u.id === pin.id && u.image_url === ''),
      (found) => found !== undefined,
    );
    // Kept for the owner, never served: not by the change log's earlier rows either.
    const row = await server.server.database.db.selectFrom('pins').select('refused_image_url').where('id', '=', pin.id).executeTakeFirstOrThrow();
    expect(row.refused_image_url).toBe(url);
    const log = await new ApiClient(server.url).get<{ changes: unknown[] }>('/api/changes?since=0');
    expect(log.status).toBe(200);
    expect(log.body.changes.length).toBeGreaterThan(0);
    expect(JSON.stringify(log.body)).not.toContain('to-private.jpg');
  });

  test('a /seed-images/ address that names no file leaves the pin as it was, without retrying', async () => {
    const created = await client.post<Pin>('/api/pins/', { title: 'No such file', imageUrl: '/seed-images/no-such-picture.jpg', description: '' });
    expect(created.status).toBe(201);
    const states = await eventually(
      () => fetchStates(server),
      (s) => !s.some((state) => state === 'created' || state === 'active' || state === 'retry'),
    );
    expect(states.at(-1)).toBe('completed');
    const pin = (await client.get<Pin>(`/api/pins/${created.body.id}`)).body;
    expect(pin.image).toBeNull();
    expect(pin.image_url).toBe('/seed-images/no-such-picture.jpg');
  });

  test('a job an older version left under the former name, image.import, still brings the picture in', async () => {
    const created = await client.post<Pin>('/api/pins/', { title: 'Left waiting', imageUrl: '/seed-images/no-such-picture.jpg', description: '' });
    expect(created.status).toBe(201);
    await eventually(
      () => fetchStates(server),
      (s) => !s.some((state) => state === 'created' || state === 'active' || state === 'retry'),
    );
    // The pin as an older version left it: waiting for a remote picture whose job has the old name.
    const url = `${originUrl}/photo.jpg`;
    const { db } = server.server.database;
    await db.updateTable('pins').set({ image_url: url, image_failure: null }).where('id', '=', created.body.id).execute();
    await server.server.jobs.sender.send(db, 'image.import', { pinId: created.body.id, url });
    const pin = await eventually(
      async () => (await client.get<Pin>(`/api/pins/${created.body.id}`)).body,
      (p) => p.image !== null,
    );
    expect(pin.image).toMatchObject({ width: 1600, height: 1000 });
    expect(pin.image_url).toMatch(/^\/media\//);
  });

  test("the demo seed's pictures come in through the same pipeline", async () => {
    await withTestServer({ seed: { pins: 3 } }, async (seeded) => {
      await queueFetches(seeded.server.jobs.sender, seeded.server.database.db, seeded.seeded?.pins ?? []);
      const anonymous = new ApiClient(seeded.url);
      const page = await eventually(
        async () => (await anonymous.get<{ pins: Pin[] }>('/api/pins/?limit=3')).body.pins,
        (pins) => pins.length === 3 && pins.every((p) => p.image !== null),
      );
      expect(page.every((p) => p.image_url.startsWith('/media/'))).toBe(true);
    });
  });
});

describe('with the default guard', () => {
  test('a pin whose image host does not exist is saved; the fetch ends at once, not retried', async () => {
    await withTestServer({}, async (server) => {
      const { client } = await signUpUser(server.url, 'nohost');
      // .invalid never resolves (RFC 2606): DNS answers "no such name", which another try won't change.
      const created = await client.post<Pin>('/api/pins/', { title: 'Typo', imageUrl: 'https://images.does-not-exist.invalid/photo.jpg', description: '' });
      expect(created.status).toBe(201);
      const states = await eventually(
        () => fetchStates(server),
        (s) => s.length === 1 && s[0] === 'completed',
      );
      expect(states).toEqual(['completed']);
      expect((await client.get<Pin>(`/api/pins/${created.body.id}`)).body.image).toBeNull();
    });
  });

  test('a pin whose image is on a private address (loopback, 10/8, localhost, another port) is saved, but that address is never shown nor fetched', async () => {
    await withTestServer({}, async (server) => {
      const { client } = await signUpUser(server.url, 'guarded');
      const created: Pin[] = [];
      server.server.events.onChange('pin:created', ({ pin }) => void created.push(pin));
      const seen = requests.length;
      const addresses = [`${originUrl}/photo.jpg`, 'http://10.1.2.3/admin.png', 'http://localhost/x.png', 'http://metadata.localhost/x.png', 'https://example.com:8443/x.png'];
      for (const imageUrl of addresses) {
        const res = await client.post<Pin>('/api/pins/', { title: 'Local', imageUrl, description: '' });
        expect(res.status).toBe(201);
        // Not even the creator's answer, nor the live event every viewer gets, carries it.
        expect(res.body.image_url).toBe('');
        expect(res.body.image).toBeNull();
        expect((await client.get<Pin>(`/api/pins/${res.body.id}`)).body.image_url).toBe('');
        // Nobody else has it until it has a picture (docs/who-sees-what.md).
        expect((await new ApiClient(server.url).get<Pin>(`/api/pins/${res.body.id}`)).status).toBe(404);
        const row = await server.server.database.db.selectFrom('pins').select('refused_image_url').where('id', '=', res.body.id).executeTakeFirstOrThrow();
        expect(row.refused_image_url).toBe(imageUrl);
      }
      expect(created.map((pin) => pin.image_url)).toEqual(addresses.map(() => ''));
      // No fetch was even queued, and nothing was fetched.
      expect(await fetchStates(server)).toEqual([]);
      expect(requests.length).toBe(seen);
    });
  });
});
