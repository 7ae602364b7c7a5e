import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { IMAGE_LIMITS, type StoredImage } from '../../contract/images.ts';
import { type ImageUploaded } from '../../contract/duplicates.ts';
import { ApiClient, type ApiResponse, signUpUser } from '../support/client.ts';
import { animatedGif, avif, describeImage, jpeg, jpegRotated, pngBomb, pngWithAlpha, webp } from '../support/image-fixtures.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

// POST /api/images/ and GET /media/… (docs/images.md) on the real server and database: every format
// is stored with its size, placeholder and thumbnails; every refusal has its message and status and
// leaves no row and no file; the same bytes are stored once.

let client: ApiClient;

const server = useTestServer();
beforeAll(async () => {
  ({ client } = await signUpUser(server.url, 'images'));
});

const db = () => server.server.database.db;

async function imageRows(): Promise<number> {
  const row = await db()
    .selectFrom('images')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every file under the media folder, temporary ones included (relative paths, sorted). */
async function mediaFiles(): Promise<string[]> {
  const dir = server.mediaDir as string;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const upload = (bytes: Buffer, name = 'picture.bin', type = 'application/octet-stream') => client.upload<ImageUploaded>('/api/images/', { bytes, name, type });

async function fetchMedia(url: string): Promise<{ response: Response; bytes: Buffer }> {
  const response = await fetch(server.url + url);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The answer is complete: the original and both thumbnails are served at once, immutable, of the right kind and width. */
async function expectServed(image: StoredImage, expected: { width: number; height: number; type: string }): Promise<void> {
  expect(image).toMatchObject({ width: expected.width, height: expected.height });
  expect(image.placeholder).toMatch(/^[A-Za-z0-9+/]{10,60}={0,2}$/);
  const original = await fetchMedia(image.url);
  expect(original.response.status).toBe(200);
  expect(original.response.headers.get('content-type')).toBe(expected.type);
  for (const [width, url] of Object.entries(image.thumbnails)) {
    const { response, bytes } = await fetchMedia(url);
    expect(response.status, url).toBe(200);
    // An upload no public pin shows yet is kept by the uploader's browser alone (docs/who-sees-what.md).
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{64}-(236|736)\.webp"$/);
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const meta = await describeImage(bytes);
    expect(meta.format).toBe('webp');
    // Never wider than the image itself; the height keeps its shape.
    const thumbnailWidth = Math.min(Number(width), expected.width);
    expect(meta.width, url).toBe(thumbnailWidth);
    expect(meta.height, url).toBe(Math.round((expected.height * thumbnailWidth) / expected.width));
    expect(meta.pages ?? 1).toBe(1);
  }
}

describe('stored images of every kind', () => {
  test('a JPEG with EXIF orientation 6 is measured and thumbnailed upright', async () => {
    const res = await upload(await jpegRotated(1200, 900), 'phone.jpg', 'image/jpeg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.image.url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{64}\.jpg$/);
    expect(res.body.image.thumbnails['236']).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{64}-236\.webp$/);
    await expectServed(res.body.image, { width: 900, height: 1200, type: 'image/jpeg' });
  });

  test('a PNG with alpha keeps its transparency in the thumbnails', async () => {
    const res = await upload(await pngWithAlpha(800, 600), 'logo.png', 'image/png');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectServed(res.body.image, { width: 800, height: 600, type: 'image/png' });
    const thumbnail = await fetchMedia(res.body.image.thumbnails['736']);
    expect((await describeImage(thumbnail.bytes)).hasAlpha).toBe(true);
  });

  test('a WebP smaller than both widths: the "736" file is its own width', async () => {
    const res = await upload(await webp(300, 200), 'small.webp', 'image/webp');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectServed(res.body.image, { width: 300, height: 200, type: 'image/webp' });
  });

  test('an animated GIF is measured by its first frame, and its thumbnails are still images', async () => {
    const res = await upload(await animatedGif(320, 240, 3), 'loop.gif', 'image/gif');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectServed(res.body.image, { width: 320, height: 240, type: 'image/gif' });
    // The original is kept as it was: all of its frames.
    const original = await fetchMedia(res.body.image.url);
    expect((await describeImage(original.bytes)).pages).toBe(3);
  });

  test('an AVIF', async () => {
    const res = await upload(await avif(1000, 400), 'wide.avif', 'image/avif');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectServed(res.body.image, { width: 1000, height: 400, type: 'image/avif' });
  });

  test('the file name and declared type are ignored: a PNG sent as "x.txt", text/plain is a PNG', async () => {
    const res = await upload(await pngWithAlpha(40, 30), 'x.txt', 'text/plain');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.image.url).toMatch(/\.png$/);
  });

  test('the same bytes uploaded twice (even by someone else) are one row and the same URLs', async () => {
    const bytes = await jpeg(640, 480);
    const rowsBefore = await imageRows();
    const first = await upload(bytes, 'a.jpg');
    const filesAfterFirst = await mediaFiles();
    const { client: other } = await signUpUser(server.url, 'imagesother');
    const second = await other.upload<ImageUploaded>('/api/images/', { bytes, name: 'b.jpg' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expect(await imageRows()).toBe(rowsBefore + 1);
    expect(await mediaFiles()).toEqual(filesAfterFirst);
    const sha = /([0-9a-f]{64})\.jpg$/.exec(first.body.image.url)?.[1] as string;
    expect(filesAfterFirst.filter((file) => file.includes(sha))).toHaveLength(3);
  });

  test('the same new bytes uploaded four times at once: one row, one set of files', async () => {
    const bytes = await jpeg(500, 500);
    const rowsBefore = await imageRows();
    const answers = await Promise.all([1, 2, 3, 4].map(() => upload(bytes)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    expect(await imageRows()).toBe(rowsBefore + 1);
    const files = await mediaFiles();
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});

describe('refusals leave no row and no file', () => {
  async function expectRefused(send: () => Promise<ApiResponse>, status: number, message: string): Promise<ErrorBody> {
    const rows = await imageRows();
    const files = await mediaFiles();
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = res.body as ErrorBody;
    expect(body.message).toBe(message);
    expect(body.errors).toEqual([message]);
    expect(await imageRows()).toBe(rows);
    expect(await mediaFiles()).toEqual(files);
    return body;
  }

  test('a text file renamed photo.jpg → 400 "That file is not an image."', async () => {
    const text = Buffer.from('This is a shopping list, not a photo.\nEggs\nMilk\n'.repeat(20));
    const body = await expectRefused(() => upload(text, 'photo.jpg', 'image/jpeg'), 400, 'That file is not an image.');
    expect(body.fields).toEqual({ file: 'That file is not an image.' });
  });

  test('an SVG (an image, but a scriptable one) → 400 "That file is not an image."', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    await expectRefused(() => upload(svg, 'icon.svg', 'image/svg+xml'), 400, 'That file is not an image.');
  });

  test('a truncated JPEG → 400 "That image is damaged or incomplete."', async () => {
    const whole = await jpeg(800, 600);
    await expectRefused(() => upload(whole.subarray(0, Math.floor(whole.length * 0.6)), 'cut.jpg'), 400, 'That image is damaged or incomplete.');
  });

  test('a truncated PNG → 400 "That image is damaged or incomplete."', async () => {
    const whole = await pngWithAlpha(400, 300);
    await expectRefused(() => upload(whole.subarray(0, Math.floor(whole.length * 0.5)), 'cut.png'), 400, 'That image is damaged or incomplete.');
  });

  test('an animated GIF cut off after its first frame (which decoders accept) → 400 "That image is damaged or incomplete."', async () => {
    const whole = await animatedGif(200, 150, 3);
    await expectRefused(() => upload(whole.subarray(0, Math.floor(whole.length * 0.8)), 'cut.gif'), 400, 'That image is damaged or incomplete.');
  });

  test('20 MB + 1 byte → 413 "Images can be at most 20 MB."', async () => {
    const whole = await jpeg(64, 64);
    const big = Buffer.alloc(IMAGE_LIMITS.maxBytes + 1);
    whole.copy(big);
    await expectRefused(() => upload(big, 'huge.jpg'), 413, 'Images can be at most 20 MB.');
  });

  test('a body declared at 1 GB → 413 at once, before any of it is sent, and the connection is closed', async () => {
    const before = await imageRows();
    // Headers only: a server that read the body first would wait here for a gigabyte that never comes.
    const answer = await new Promise<{ status: number; connection: string | undefined; body: ErrorBody }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/images/`, {
        method: 'POST',
        headers: {
          cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-xsrf-token': client.csrfToken ?? '',
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': String(1024 ** 3),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) as ErrorBody }));
      });
      req.on('error', reject);
      req.write('--b\r\nContent-Disposition: form-data; name="file"; filename="huge.jpg"\r\n\r\n');
    });
    expect(answer).toEqual({
      status: 413,
      connection: 'close',
      body: { message: 'Images can be at most 20 MB.', errors: ['Images can be at most 20 MB.'], fields: { file: 'Images can be at most 20 MB.' } },
    });
    expect(await imageRows()).toBe(before);
  });

  test('exactly 20 MB is accepted', async () => {
    // A real JPEG padded to the limit: the bytes after its end marker are ignored by decoders.
    const whole = await jpeg(64, 64);
    const padded = Buffer.alloc(IMAGE_LIMITS.maxBytes);
    whole.copy(padded);
    const res = await upload(padded, 'padded.jpg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  test('a decompression bomb (a 1 KB PNG claiming 20000 × 20000) → 400 "Images can be at most 50 megapixels."', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2_000);
    await expectRefused(() => upload(bomb, 'bomb.png'), 400, 'Images can be at most 50 megapixels.');
  });

  test('a zero-byte file → 400 "The file is empty."', async () => {
    await expectRefused(() => upload(Buffer.alloc(0), 'empty.jpg'), 400, 'The file is empty.');
  });

  test('no file field → 400 "Choose an image to upload."', async () => {
    const form = new FormData();
    form.append('title', 'no file here');
    const body = await expectRefused(() => client.request('POST', '/api/images/', { form }), 400, 'Choose an image to upload.');
    expect(body.fields).toEqual({ file: 'Choose an image to upload.' });
  });

  test('the file in another field → 400', async () => {
    const bytes = await jpeg(32, 32);
    await expectRefused(() => client.upload('/api/images/', { bytes }, { field: 'image' }), 400, 'Send one image, in the form field "file".');
  });

  test('two files → 400', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await jpeg(32, 32))]), 'a.jpg');
    form.append('file', new Blob([new Uint8Array(await jpeg(33, 33))]), 'b.jpg');
    await expectRefused(() => client.request('POST', '/api/images/', { form }), 400, 'Send one image, in the form field "file".');
  });

  test('a malformed multipart body → 400 in the error shape', async () => {
    const broken = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8\xff'; // no closing boundary
    await expectRefused(
      () => client.request('POST', '/api/images/', { rawBody: broken, headers: { 'content-type': 'multipart/form-data; boundary=x' } }),
      400,
      'The upload must be a multipart/form-data form with the image in the field "file".',
    );
  });

  test('a JSON body instead of a form → 400 "Choose an image to upload."', async () => {
    await expectRefused(() => client.post('/api/images/', { file: 'aGVsbG8=' }), 400, 'Choose an image to upload.');
  });

  test('signed out → 401, before the file is read', async () => {
    const anonymous = new ApiClient(server.url);
    await expectRefused(() => anonymous.upload('/api/images/', { bytes: Buffer.alloc(1024) }), 401, 'You must be signed in to do that.');
  });

  test('no anti-forgery header → 403', async () => {
    const bytes = await jpeg(48, 48);
    const res = await expectRefused(() => client.upload('/api/images/', { bytes }, { csrf: false }), 403, 'Invalid or missing CSRF token. Reload the page and try again.');
    expect(res).toBeDefined();
  });
});

describe('GET and HEAD /media/…', () => {
  let image: StoredImage;
  beforeAll(async () => {
    const res = await upload(await jpeg(300, 300), 'served.jpg');
    expect(res.status).toBe(201);
    image = res.body.image;
  });

  test('an original is served with its own type, immutable, with an ETag that answers 304', async () => {
    const first = await fetch(server.url + image.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    // No public pin shows it yet: the browser's alone (docs/who-sees-what.md).
    expect(first.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}\.jpg"$/);
    // Anonymous readers get it, and no session cookie is set for it.
    expect(first.headers.getSetCookie()).toEqual([]);
    const again = await fetch(server.url + image.url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  test('HEAD gives the headers and no body', async () => {
    const res = await fetch(server.url + image.thumbnails['236'], { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  test('anything that is not a stored key → 404 in the error shape', async () => {
    const sha = /([0-9a-f]{64})\.jpg$/.exec(image.url)?.[1] as string;
    const other = sha.replace(/^(..)/, (prefix) => (prefix === 'ff' ? 'ee' : 'ff'));
    const paths = [
      `/media/${other.slice(0, 2)}/${other}.jpg`, // a well-formed key nobody stored
      `/media/${sha.slice(0, 2)}/${sha}.png`, // the right hash with another format
      `/media/${sha.slice(0, 2)}/${sha}-100.webp`, // a width that is not made
      `/media/${sha.startsWith('00') ? '01' : '00'}/${sha}.jpg`, // the wrong folder for the hash
      `/media/${sha.slice(0, 2)}/${sha.toUpperCase()}.jpg`,
      `/media/${sha.slice(0, 2)}/`,
      `/media/${sha.slice(0, 2)}`,
      '/media/',
      '/media/../package.json',
      '/media/%2e%2e/%2e%2e/package.json',
      `/media/${sha.slice(0, 2)}/..%2f..%2fpackage.json`,
      `/media/${sha.slice(0, 2)}/${sha}.jpg/extra`,
      `/media/${sha.slice(0, 2)}/.${sha}.jpg.tmp`,
    ];
    for (const url of paths) {
      const res = await fetch(server.url + url);
      const text = await res.text();
      // A path the URL parser normalises out of /media/ (the "..") is the web client's page instead.
      if (!new URL(server.url + url).pathname.startsWith('/media/')) {
        expect(text, url).not.toContain('"name"');
        continue;
      }
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
      expect(JSON.parse(text), url).toEqual({ message: 'Image not found.', errors: ['Image not found.'], fields: {} });
    }
  });

  test('other methods → 404', async () => {
    const res = await fetch(server.url + image.url, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect((await fetch(server.url + image.url)).status).toBe(200);
  });
});

test('uploads are rate limited per user (429 with Retry-After), before the file is read', async () => {
  await withTestServer({ env: { UPLOAD_RATE_LIMIT_PER_USER: '2' } }, async (limited) => {
    const { client: uploader } = await signUpUser(limited.url, 'imglimit');
    const bytes = await jpeg(40, 40);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await uploader.upload('/api/images/', { bytes })).status);
    expect(statuses).toEqual([201, 201, 429]);
    const refused = await uploader.upload<ErrorBody>('/api/images/', { bytes });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user has a budget of their own.
    const { client: other } = await signUpUser(limited.url, 'imglimit2');
    expect((await other.upload('/api/images/', { bytes })).status).toBe(201);
  });
});

test('the OpenAPI document describes the upload as a multipart form with a binary "file"', async () => {
  const res = await new ApiClient(server.url).get<{ paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>> }>('/api/openapi.json');
  const content = res.body.paths['/api/images/']?.post?.requestBody?.content;
  expect(Object.keys(content ?? {})).toEqual(['multipart/form-data']);
  expect(content?.['multipart/form-data']?.schema).toMatchObject({ type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
});
