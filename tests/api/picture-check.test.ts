import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ImageUploaded, PictureChecked } from '../../contract/duplicates.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { addToBoard, newBoard } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

// GET /api/images/duplicates?url= (docs/duplicates.md): a picture by its address, checked for the
// caller's look-alikes without storing it — this site's upload by its row, another site's picture
// fetched (a small local site, allowed as the imports' tests allow theirs) and seen as an upload is.

/** Raw RGB pixels of `width` × `height`, each coloured by `paint(x, y)` (0..1 each way). */
function pixels(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(paint(x / width, y / height), (y * width + x) * 3);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A picture with shapes (a perceptual hash needs structure; noise changes with every resize). */
const shapes = () =>
  pixels(900, 675, (x, y) => {
    if ((x - 0.3) ** 2 + ((y - 0.4) * 0.75) ** 2 < 0.04) return [220, 50, 50];
    if (x > 0.55 && x < 0.9 && y > 0.2 && y < 0.8) return [30, 30, 30];
    if (y > 0.85) return [40, 160, 90];
    return [244, 239, 230];
  });
/** Another picture: a diagonal. */
const diagonal = () => pixels(600, 600, (x, y) => (y > x ? [250, 220, 0] : [20, 30, 60]));

let site: Server;
let origin: string;
const sockets = new Set<Socket>();
const files = new Map<string, Buffer>();

beforeAll(async () => {
  files.set('/same.jpg', await shapes());
  // The same picture re-encoded smaller: other bytes, a look-alike.
  files.set(
    '/smaller.jpg',
    await sharp(await shapes())
      .resize(400)
      .jpeg({ quality: 50 })
      .toBuffer(),
  );
  files.set('/other.jpg', await diagonal());
  files.set('/page.html', Buffer.from('<title>Not a picture</title>'));
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const body = files.get(path);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': path.endsWith('.html') ? 'text/html' : 'image/jpeg' }).end(body);
  });
  site.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

describe('GET /api/images/duplicates', () => {
  const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(origin).port, FETCH_HEADERS_TIMEOUT_SECONDS: '1' } }));
  let ann: ApiClient;
  let bob: ApiClient;
  let pin: Pin;
  let stored: ImageUploaded['image'];
  beforeAll(async () => {
    ({ client: ann } = await signUpUser(server.url, 'checkann'));
    ({ client: bob } = await signUpUser(server.url, 'checkbob'));
    const uploaded = await ann.upload<ImageUploaded>('/api/images/', { bytes: files.get('/same.jpg') as Buffer, name: 'same.jpg', type: 'image/jpeg' });
    expect(uploaded.status).toBe(201);
    stored = uploaded.body.image;
    pin = (await ann.post<Pin>('/api/pins/', { title: 'Red circle', imageUrl: stored.url })).body;
    await addToBoard(ann, (await newBoard(ann, 'Shapes')).id, pin.id);
  });

  const check = (client: ApiClient, url: string) => client.get<PictureChecked & ErrorBody>(`/api/images/duplicates?url=${encodeURIComponent(url)}`);

  test("this site's upload, by its address: the caller's pin of it with its board; nothing is stored", async () => {
    const before = await server.server.database.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const answer = await check(ann, stored.url);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.checked).toBe(true);
    expect(answer.body.duplicates.map((d) => [d.pin.id, d.boards.map((b) => b.name)])).toEqual([[pin.id, ['Shapes']]]);
    // Someone else's check of the same picture: only their own pins, so none.
    expect((await check(bob, stored.url)).body).toEqual({ duplicates: [], checked: true });
    const after = await server.server.database.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  test("another site's picture: the same bytes, and a smaller re-encoded copy, are found; another picture is not", async () => {
    const started = performance.now();
    const same = await check(ann, `${origin}/same.jpg`);
    console.log(`picture check of a remote 900 px JPEG: ${(performance.now() - started).toFixed(0)} ms`);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.duplicates.map((d) => d.pin.id)).toEqual([pin.id]);
    const smaller = await check(ann, `${origin}/smaller.jpg`);
    expect(smaller.body.duplicates.map((d) => d.pin.id)).toEqual([pin.id]);
    expect((await check(ann, `${origin}/other.jpg`)).body).toEqual({ duplicates: [], checked: true });
  });

  test('a picture that cannot be read is not known (checked false); a bad address is refused', async () => {
    expect((await check(ann, `${origin}/missing.jpg`)).body).toEqual({ duplicates: [], checked: false });
    expect((await check(ann, `${origin}/page.html`)).body).toEqual({ duplicates: [], checked: false });
    const bad = await check(ann, 'javascript:alert(1)');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['errors', 'fields', 'message']);
  });
});
