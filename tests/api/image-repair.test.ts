import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ImageStatus } from '../../contract/image-repair.ts';
import type { Pin } from '../../contract/pins.ts';
import { FETCH_ATTEMPTS } from '../../backend/pins/image-fetch-job.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { eventually } from '../support/eventually.ts';

// Mending a pin whose image never arrived (docs/image-repair.md): the import that gives up keeps
// why on the pin, its owner alone reads it (GET /api/pins/{id}/image-status), and replaces the
// image with PUT /api/pins/{id} and `imageUrl` — a new address imported again, the same address
// tried again, an upload attached at once — while SPEC's {title, description} keeps working.

let origin: Server;
let originUrl: string;
const requests: string[] = [];
let photo: Buffer;
let owner: ApiClient;
let other: ApiClient;
/** A port allowed to imports where nothing listens: every try fails to connect. */
let closedPort: number;

beforeAll(async () => {
  photo = await jpeg(1200, 800);
  origin = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    else if (req.url === '/notes.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('just some text');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});
const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: `${new URL(originUrl).port},${closedPort}` } }));
beforeAll(async () => {
  ({ client: owner } = await signUpUser(server.url, 'mender'));
  ({ client: other } = await signUpUser(server.url, 'stranger'));
});

const status = (id: number, client = owner) => client.get<ImageStatus>(`/api/pins/${id}/image-status`);
const settled = (id: number) =>
  eventually(
    async () => (await status(id)).body,
    (s) => s.status !== 'importing',
  );

async function failedPin(file: string): Promise<Pin> {
  const created = await owner.post<Pin>('/api/pins/', { title: `Broken ${file}`, imageUrl: `${originUrl}/${file}`, description: 'kept' });
  expect(created.status).toBe(201);
  expect((await settled(created.body.id)).status).toBe('failed');
  return created.body;
}

describe('a failed import, as its owner sees it', () => {
  test('the owner reads why (a 404, not an image); others get 403, the signed-out 401, an unknown pin 404', async () => {
    const gone = await failedPin('gone.jpg');
    expect((await status(gone.id)).body).toEqual({ status: 'failed', reason: 'http_status:404', message: expect.stringContaining('answered 404') });
    const notes = await failedPin('notes.jpg');
    expect((await status(notes.id)).body).toMatchObject({ status: 'failed', reason: 'not-an-image', message: expect.stringContaining('not an image') });
    expect((await status(gone.id, other)).status).toBe(403);
    expect((await status(gone.id, new ApiClient(server.url))).status).toBe(401);
    expect((await status(2_000_000)).status).toBe(404);
    // The pin itself is the same for everyone: no reason in it.
    const pin = (await new ApiClient(server.url).get<Pin>(`/api/pins/${gone.id}`)).body;
    expect(pin).not.toHaveProperty('image_failure');
    expect(pin.image).toBeNull();
  });

  test('a new address is imported again: the image arrives, the failure is gone, pin.updated went out', async () => {
    const pin = await failedPin('missing.jpg');
    const updates: Pin[] = [];
    server.server.events.onChange('pin:updated', ({ pin: updated }) => void updates.push(updated));
    const replaced = await owner.put<Pin>(`/api/pins/${pin.id}`, { title: pin.title, description: pin.description, imageUrl: `${originUrl}/photo.jpg` });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ image_url: `${originUrl}/photo.jpg`, image: null, title: pin.title, description: 'kept' });
    expect((await status(pin.id)).body.status).toBe('importing');
    const mended = await eventually(
      async () => (await owner.get<Pin>(`/api/pins/${pin.id}`)).body,
      (p) => p.image !== null,
    );
    expect(mended.image).toMatchObject({ width: 1200, height: 800 });
    expect((await status(pin.id)).body).toEqual({ status: 'stored', reason: null, message: null });
    expect(updates.some((u) => u.id === pin.id && u.image !== null)).toBe(true);
  });

  test('the same address again is tried again', async () => {
    const pin = await failedPin('later.jpg');
    const before = requests.filter((url) => url === '/later.jpg').length;
    expect((await owner.put<Pin>(`/api/pins/${pin.id}`, { title: pin.title, description: '', imageUrl: pin.image_url })).status).toBe(200);
    await eventually(
      async () => requests.filter((url) => url === '/later.jpg').length,
      (n) => n > before,
    );
    expect((await settled(pin.id)).status).toBe('failed');
  });

  test('an uploaded image is attached at once, with no import', async () => {
    const pin = await failedPin('nothing.jpg');
    const uploaded = await owner.upload<{ image: { url: string; width: number } }>('/api/images/', { bytes: await jpeg(640, 480), name: 'fix.jpg', type: 'image/jpeg' });
    expect(uploaded.status).toBe(201);
    const { rows: jobsBefore } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'image.fetch'`.execute(server.server.database.db);
    const replaced = await owner.put<Pin>(`/api/pins/${pin.id}`, { title: pin.title, description: '', imageUrl: uploaded.body.image.url });
    expect(replaced.status).toBe(200);
    expect(replaced.body.image).toMatchObject({ width: 640, height: 480 });
    expect(replaced.body.image_url).toBe(uploaded.body.image.url);
    const { rows: jobsAfter } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'image.fetch'`.execute(server.server.database.db);
    expect(jobsAfter[0]?.n).toBe(jobsBefore[0]?.n);
    expect((await status(pin.id)).body.status).toBe('stored');
  });
});

test('a failure that lasts through the last retry is kept too (the site could not be reached)', async () => {
  const url = `http://127.0.0.1:${closedPort}/photo.jpg`;
  const created = await owner.post<Pin>('/api/pins/', { title: 'Unreachable', imageUrl: url, description: '' });
  expect(created.status).toBe(201);
  // Retries wait longer each time: the last one is sent here at once, as the queue would send it.
  await server.server.jobs.sender.send(server.server.database.db, 'image.fetch', { pinId: created.body.id, url, userId: created.body.user_id, attempt: FETCH_ATTEMPTS - 1 });
  expect(await settled(created.body.id)).toMatchObject({ status: 'failed', reason: 'network', message: expect.stringContaining('could not be reached') });
});

test("an address refused up front (a private network) is nobody's to fetch: its owner is told why, and a new address mends it", async () => {
  const created = await owner.post<Pin>('/api/pins/', { title: 'Private', imageUrl: 'http://10.1.2.3/secret.jpg', description: '' });
  expect(created.status).toBe(201);
  expect(created.body.image_url).toBe('');
  expect((await status(created.body.id)).body).toMatchObject({ status: 'failed', reason: 'blocked_address', message: expect.stringContaining('10.1.2.3') });
  // Replacing it with another private address is refused the same way, with the same reason.
  const again = await owner.put<Pin>(`/api/pins/${created.body.id}`, { title: 'Private', description: '', imageUrl: 'http://192.168.1.9/x.jpg' });
  expect(again.status).toBe(200);
  expect(again.body.image_url).toBe('');
  expect((await status(created.body.id)).body).toMatchObject({ status: 'failed', message: expect.stringContaining('192.168.1.9') });
  const mended = await owner.put<Pin>(`/api/pins/${created.body.id}`, { title: 'Private', description: '', imageUrl: `${originUrl}/photo.jpg` });
  expect(mended.body.image_url).toBe(`${originUrl}/photo.jpg`);
  expect((await settled(created.body.id)).status).toBe('stored');
});

describe('PUT /api/pins/{id}', () => {
  test("SPEC's {title, description} keeps the image; imageUrl is the owner's only and must be an image address", async () => {
    const pin = await failedPin('spec.jpg');
    const edited = await owner.put<Pin>(`/api/pins/${pin.id}`, { title: 'Renamed', description: 'still broken' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Renamed', image_url: pin.image_url, image: null });
    expect((await status(pin.id)).body.status).toBe('failed'); // an edit of the text is no retry
    expect((await other.put(`/api/pins/${pin.id}`, { title: 'Mine', description: '', imageUrl: `${originUrl}/photo.jpg` })).status).toBe(403);
    for (const imageUrl of ['javascript:alert(1)', '/api/auth/logout', `${server.url}/api/pins/`, '', 'x'.repeat(3000)]) {
      const refused = await owner.put<{ fields: Record<string, string> }>(`/api/pins/${pin.id}`, { title: 'Renamed', description: '', imageUrl });
      expect(refused.status, imageUrl.slice(0, 40)).toBe(400);
      expect(refused.body.fields).toHaveProperty('imageUrl');
    }
    expect((await owner.get<Pin>(`/api/pins/${pin.id}`)).body.image_url).toBe(pin.image_url);
  });
});
