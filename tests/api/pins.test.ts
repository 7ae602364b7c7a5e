import { statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { DEMO_IMAGES_DIR, type DemoImage, demoImageUrl } from '../../db/demo-catalog.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { DEMO_PINS, DRAWING_URL, PHOTO_URL, seededImages } from '../support/demo.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

const newest = seededImages[0] as DemoImage;
/** A real file the app serves, for the same-site address checks. */
const LOCAL_IMAGE = DRAWING_URL;

const server = useTestServer({ seed: { pins: DEMO_PINS } });

const anon = () => new ApiClient(server.url);

/** POST /api/pins/ as `client` (its cookies and anti-forgery token) with a Host header of our choosing. */
function postWithHost(client: ApiClient, host: string, json: unknown): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = request(`${client.baseUrl}/api/pins/`, {
      method: 'POST',
      headers: {
        host,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-xsrf-token': client.csrfToken ?? '',
      },
    });
    req.on('response', (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const countPins = async () =>
  Number(
    (
      await server.server.database.db
        .selectFrom('pins')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('reading pins', () => {
  test('GET /api/pins/ lists every pin newest first with owner and likes count', async () => {
    const res = await anon().get<PinList>('/api/pins/');
    expect(res.status).toBe(200);
    expect(res.body.pins.length).toBeGreaterThanOrEqual(DEMO_PINS);
    const first = res.body.pins[0] as Pin;
    expect(Object.keys(first).sort()).toEqual(
      ['id', 'title', 'image_url', 'image', 'description', 'tags', 'user_id', 'user', 'likes_count', 'created_at', 'updated_at', 'source_url', 'visibility', 'alt_text'].sort(),
    );
    expect(first.user).toEqual({ id: first.user_id, username: expect.any(String) });
    const times = res.body.pins.map((p) => Date.parse(p.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The seed's pins are the catalog's first pictures, newest first, with its titles and texts.
    expect(res.body.pins.slice(0, DEMO_PINS).map((p) => p.title)).toEqual(seededImages.map((image) => image.title));
    expect(server.seeded?.pins.map((pin) => pin.id)).toEqual(res.body.pins.slice(0, DEMO_PINS).map((p) => p.id));
    // Seeded favorites show up in the counts (the newest sample pin has two).
    expect(first).toMatchObject({ title: newest.title, description: newest.description, image_url: demoImageUrl(newest), likes_count: 2 });
  });

  test('seed images are served by the app itself, as the files in db/demo-images', async () => {
    for (const [url, type] of [
      [PHOTO_URL, 'image/jpeg'],
      [DRAWING_URL, 'image/webp'],
    ]) {
      const res = await fetch(`${server.url}${url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect((await res.arrayBuffer()).byteLength).toBe(statSync(path.join(DEMO_IMAGES_DIR, path.basename(url as string))).size);
    }
    // The seed hands back each pin's picture on disk (for the image pipeline).
    for (const pin of server.seeded?.pins ?? []) expect(statSync(pin.file).size, pin.imageUrl).toBeGreaterThan(0);
    expect(server.seeded?.pins.map((pin) => pin.imageUrl)).toEqual(seededImages.map(demoImageUrl));
    expect((await fetch(`${server.url}/seed-images/sunrise-dunes.svg`)).status).toBe(404);
  });

  test('GET /api/pins/{id} returns one pin; unknown → 404; malformed → 400', async () => {
    const list = await anon().get<PinList>('/api/pins/');
    const pin = list.body.pins[3] as Pin;
    const res = await anon().get<Pin>(`/api/pins/${pin.id}`);
    expect(res.body).toEqual(pin);
    const missing = await anon().get<ErrorBody>('/api/pins/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Pin not found.', errors: ['Pin not found.'], fields: {} });
    expect((await anon().get<ErrorBody>('/api/pins/abc')).status).toBe(400);
  });
});

describe('creating pins', () => {
  test('201 with the full pin; listed first; description optional', async () => {
    const { client, user } = await signUpUser(server.url);
    const res = await client.post<Pin>('/api/pins/', { title: '  Blue door ', imageUrl: 'https://example.com/door.jpg' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Blue door',
      image_url: 'https://example.com/door.jpg',
      description: '',
      user_id: user.id,
      user: { id: user.id, username: user.username },
      likes_count: 0,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    const list = await anon().get<PinList>('/api/pins/');
    expect(list.body.pins[0]?.id).toBe(res.body.id);
  });

  test('same-origin image paths are accepted', async () => {
    const { client } = await signUpUser(server.url);
    const res = await client.post<Pin>('/api/pins/', { title: 'Local', imageUrl: LOCAL_IMAGE, description: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.image_url).toBe(LOCAL_IMAGE);
  });

  test('blank title and image URL → 400 with both SPEC messages; nothing stored', async () => {
    const { client } = await signUpUser(server.url);
    const before = await countPins();
    const res = await client.post<ErrorBody>('/api/pins/', { title: '   ', imageUrl: '', description: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['Title is required.', 'Image URL is required.']);
    expect(res.body.fields).toEqual({ title: 'Title is required.', imageUrl: 'Image URL is required.' });
    expect(await countPins()).toBe(before);
  });

  test('length limits and URL schemes are enforced', async () => {
    const { client } = await signUpUser(server.url);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: 'x'.repeat(201), imageUrl: 'https://a.test/x.png' }, 'title', 'Title must be at most 200 characters.'],
      [{ title: 't', imageUrl: 'https://a.test/x.png', description: 'd'.repeat(2001) }, 'description', 'Description must be at most 2000 characters.'],
      [{ title: 't', imageUrl: `https://a.test/${'x'.repeat(2048)}` }, 'imageUrl', 'Image URL must be at most 2048 characters.'],
      [{ title: 't', imageUrl: 'javascript:alert(1)' }, 'imageUrl', 'Image URL must be an http(s) address or an image on this site.'],
      [{ title: 't', imageUrl: '//evil.test/x.png' }, 'imageUrl', 'Image URL must be an http(s) address or an image on this site.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.post<ErrorBody>('/api/pins/', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.fields[field]).toBe(message);
    }
    // Exactly at the limits is fine.
    const ok = await client.post('/api/pins/', { title: 'x'.repeat(200), imageUrl: 'https://a.test/x.png', description: 'd'.repeat(2000) });
    expect(ok.status).toBe(201);
  });

  test('a same-site image address must resolve where images live, however it is spelled; nothing stored', async () => {
    const { client } = await signUpUser(server.url);
    const host = new URL(server.url).host;
    const acting = [
      '/api/auth/logout',
      '/api/pins/',
      '/API/auth/logout',
      '/%61pi/auth/logout',
      '/seed-images/../api/auth/logout',
      '/seed-images/%2e%2e/api/auth/logout',
      '/seed-images/%2E%2E/api/auth/logout',
      '/seed-images/..%2fapi/auth/logout',
      '/seed-images/..%5capi/auth/logout',
      '\\api\\auth\\logout',
      '/seed-images\\..\\api\\auth\\logout',
      '/SEED-IMAGES/../api/auth/logout',
      '/seed-images/',
      `${LOCAL_IMAGE}?next=/api/auth/logout`,
      '/',
      '/pins/new',
      `http://${host}/api/auth/logout`,
      `http://${host.toUpperCase()}/api/auth/logout`,
      `https://${host}/seed-images/../api/auth/logout`,
    ];
    const before = await countPins();
    for (const imageUrl of acting) {
      const res = await client.post<ErrorBody>('/api/pins/', { title: 'Acting image', imageUrl });
      expect(res.status, imageUrl).toBe(400);
      expect(res.body.fields.imageUrl, imageUrl).toBe('Image URL must be an http(s) address or an image on this site.');
    }
    expect(await countPins()).toBe(before);
    // Images of this site, by path or by its own absolute address, and other sites' images stay fine.
    for (const imageUrl of [LOCAL_IMAGE, '/media/ab/photo-236.webp', `http://${host}${LOCAL_IMAGE}`, 'https://other.test/photos/logout.png']) {
      const res = await client.post('/api/pins/', { title: 'Image', imageUrl });
      expect(res.status, imageUrl).toBe(201);
    }
  });

  test("a request's own Host header cannot widen the same-site rule: without PUBLIC_ORIGIN no address may reach the API, on any host", async () => {
    const { client } = await signUpUser(server.url);
    const host = new URL(server.url).host;
    const before = await countPins();
    // fetch cannot forge Host; node:http can. The site believes itself to be evil.test here, so
    // its real name looks like another site's.
    for (const imageUrl of [
      `http://${host}/api/auth/logout`,
      `http://${host}/API/auth/logout`,
      'https://other.test/api/auth/logout',
      'https://other.test//%61pi/auth/logout',
      'http://other.test/socket.io/?EIO=4',
    ]) {
      const res = await postWithHost(client, 'evil.test', { title: 'Acting image', imageUrl });
      expect(res.status, imageUrl).toBe(400);
      expect(JSON.parse(res.body).fields.imageUrl, imageUrl).toBe('Image URL must be an http(s) address or an image on this site.');
    }
    expect(await countPins()).toBe(before);
    const ok = await postWithHost(client, 'evil.test', { title: 'Image', imageUrl: 'https://other.test/images/api.png' });
    expect(ok.status).toBe(201);
    // Where the public origins are configured, other sites' addresses are judged as other sites'.
    await withTestServer({ env: { PUBLIC_ORIGIN: 'https://pins.example' } }, async (named) => {
      const { client: there } = await signUpUser(named.url);
      expect((await postWithHost(there, 'pins.example', { title: 'Other API', imageUrl: 'https://other.test/api/auth/logout' })).status).toBe(201);
      const own = await postWithHost(there, 'evil.test', { title: 'Own API', imageUrl: 'https://pins.example/api/auth/logout' });
      expect(own.status).toBe(400);
    });
  });

  test('signed out → 401', async () => {
    const res = await anon().post<ErrorBody>('/api/pins/', { title: 't', imageUrl: 'https://a.test/x.png' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('You must be signed in to do that.');
  });
});

describe('editing and deleting pins', () => {
  test('owner edits title and description; image stays', async () => {
    const { client } = await signUpUser(server.url);
    const pin = (await client.post<Pin>('/api/pins/', { title: 'Old', imageUrl: 'https://a.test/x.png', description: 'old' })).body;
    const res = await client.put<Pin>(`/api/pins/${pin.id}`, { title: 'New', description: 'new' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pin.id, title: 'New', description: 'new', image_url: 'https://a.test/x.png' });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(pin.updated_at));
    const blank = await client.put<ErrorBody>(`/api/pins/${pin.id}`, { title: ' ', description: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(['Title is required.']);
  });

  test('another user cannot edit or delete (403) and the pin is unchanged', async () => {
    const owner = await signUpUser(server.url);
    const other = await signUpUser(server.url);
    const pin = (await owner.client.post<Pin>('/api/pins/', { title: 'Mine', imageUrl: 'https://a.test/x.png' })).body;
    expect((await other.client.put(`/api/pins/${pin.id}`, { title: 'Hacked', description: '' })).status).toBe(403);
    expect((await other.client.delete(`/api/pins/${pin.id}`)).status).toBe(403);
    expect((await anon().get<Pin>(`/api/pins/${pin.id}`)).body).toEqual(pin);
  });

  test('signed out → 401; unknown id → 404', async () => {
    const { client } = await signUpUser(server.url);
    expect((await anon().put('/api/pins/1', { title: 'x', description: '' })).status).toBe(401);
    expect((await anon().delete('/api/pins/1')).status).toBe(401);
    expect((await client.put('/api/pins/999999', { title: 'x', description: '' })).status).toBe(404);
    expect((await client.delete('/api/pins/999999')).status).toBe(404);
  });

  test('owner deletes: gone from the list, its favorites, comments and board entries cascade', async () => {
    const { client } = await signUpUser(server.url);
    const pin = (await client.post<Pin>('/api/pins/', { title: 'Doomed', imageUrl: 'https://a.test/x.png' })).body;
    await client.post('/api/favorites/', { pin_id: pin.id });
    await client.post(`/api/comments/pins/${pin.id}/comments`, { text: 'bye' });
    const board = (await client.post<{ id: number }>('/api/boards/', { name: 'B' })).body;
    await client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
    const res = await client.delete<{ message: string; id: number }>(`/api/pins/${pin.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(pin.id);
    expect((await anon().get(`/api/pins/${pin.id}`)).status).toBe(404);
    const db = server.server.database.db;
    for (const table of ['favorites', 'comments', 'board_pins'] as const) {
      const rows = await db.selectFrom(table).select('pin_id').where('pin_id', '=', pin.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect((await client.get<{ pins: unknown[] }>(`/api/boards/${board.id}`)).body.pins).toEqual([]);
  });
});
