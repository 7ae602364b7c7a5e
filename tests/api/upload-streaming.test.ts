import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { startSlowUpload } from '../support/slow-upload.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Uploads are streamed to a temporary file, never held whole in memory, and bounded: bodies in
// flight per instance and per user (503 / 429 with Retry-After beyond), a deadline for the whole
// upload, temporary files removed on every path. An upload declared too large is answered 413 and
// its body read and discarded for a bounded while, so a client still sending reads the answer;
// `Expect: 100-continue` gets that 413 before any of the body is sent.

const EVENTUALLY_MS = 30_000;
const MB = 1024 * 1024;
const TOO_LARGE = { message: 'Images can be at most 20 MB.', errors: ['Images can be at most 20 MB.'], fields: { file: 'Images can be at most 20 MB.' } };

let uploadDir: string;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > EVENTUALLY_MS) throw new Error(`not done after ${EVENTUALLY_MS} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every file under the upload folder (each server makes a folder of its own inside it). */
async function temporaryFiles(): Promise<string[]> {
  const entries = await readdir(uploadDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

beforeAll(async () => {
  uploadDir = await mkdtemp(path.join(tmpdir(), 'pinboard-upload-test-'));
});
afterAll(async () => {
  await rm(uploadDir, { recursive: true, force: true });
});
const server = useTestServer(() => ({ env: { UPLOAD_TMP_DIR: uploadDir, UPLOADS_IN_FLIGHT: '2', UPLOADS_IN_FLIGHT_PER_USER: '1', UPLOAD_TIMEOUT_SECONDS: '3' } }));

describe('bodies in flight are bounded', () => {
  test('a second upload of the same user while one is in flight → 429; a third body on the instance → 503; both with Retry-After', async () => {
    const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((name) => signUpUser(server.url, name)));
    const small = await jpeg(64, 48);
    const first = startSlowUpload(server.url, alice!.client, 2 * MB);
    first.send(64 * 1024);
    // Received, not answered: its body is being written to a temporary file.
    await eventually(temporaryFiles, (files) => files.length === 1);

    const again = await alice!.client.upload<ErrorBody>('/api/images/', { bytes: small });
    expect(again.status, JSON.stringify(again.body)).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(again.body.message).toBe('You have an upload in progress already. Wait for it to finish, then try again.');

    const second = startSlowUpload(server.url, bob!.client, 2 * MB);
    second.send(64 * 1024);
    await eventually(temporaryFiles, (files) => files.length === 2);
    const third = await carol!.client.upload<ErrorBody>('/api/images/', { bytes: small });
    expect(third.status, JSON.stringify(third.body)).toBe(503);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.body.errors).toEqual([third.body.message]);

    // Places are given back when the bodies end: then everyone can upload again.
    first.req.destroy();
    second.finish();
    const secondAnswer = await second.answer;
    expect(secondAnswer.status).toBe(400); // zeros after the magic bytes: damaged, but received
    const after = await eventually(
      () => carol!.client.upload('/api/images/', { bytes: small }),
      (res) => res.status !== 503,
    );
    expect(after.status).toBe(201);
    expect((await alice!.client.upload('/api/images/', { bytes: await jpeg(65, 48) })).status).toBe(201);
    await eventually(temporaryFiles, (files) => files.length === 0);
  });
});

describe('temporary files', () => {
  test('an upload that stops half-way (the client goes away) leaves no temporary file', async () => {
    const { client } = await signUpUser(server.url, 'quitter');
    const upload = startSlowUpload(server.url, client, 4 * MB);
    upload.send(MB);
    await eventually(temporaryFiles, (files) => files.length === 1);
    upload.req.destroy();
    await eventually(temporaryFiles, (files) => files.length === 0);
    // The user's place was given back too.
    expect((await client.upload('/api/images/', { bytes: await jpeg(50, 40) })).status).toBe(201);
  });

  test('an upload slower than UPLOAD_TIMEOUT_SECONDS → 408 in the error shape, and no temporary file', async () => {
    const { client } = await signUpUser(server.url, 'slowpoke');
    const upload = startSlowUpload(server.url, client, 4 * MB);
    upload.send(1024);
    const timer = setInterval(() => upload.send(1024), 200);
    try {
      const answer = await upload.answer;
      console.log(`slow upload answered ${answer.status}`);
      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toEqual({ message: 'The upload took too long. Try again on a faster connection.', errors: ['The upload took too long. Try again on a faster connection.'], fields: {} });
    } finally {
      clearInterval(timer);
      upload.req.destroy();
    }
    await eventually(temporaryFiles, (files) => files.length === 0);
  });
});

describe('a body declared too large', () => {
  test("Node's fetch sending 25 MB reads the 413 and the error shape (the body is drained, not cut off)", async () => {
    const { client } = await signUpUser(server.url, 'bigsender');
    const big = new Uint8Array(25 * MB);
    big.set(await jpeg(32, 32));
    for (let round = 0; round < 5; round++) {
      const res = await client.upload<ErrorBody>('/api/images/', { bytes: big, name: 'big.jpg', type: 'image/jpeg' });
      expect(res.status).toBe(413);
      expect(res.body).toEqual(TOO_LARGE);
    }
  });

  test('after the early 413 the server goes on reading what the client still sends, then closes (a lingering close)', async () => {
    const { client } = await signUpUser(server.url, 'lingerer');
    await client.get('/api/auth/');
    // A raw connection: node:http and fetch give up sending once they have a whole answer, so only
    // a socket shows what the server does with the rest of the body.
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    let received = '';
    let failure: unknown;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => (received += text));
    socket.on('error', (error) => (failure = error));
    let closedByServer = false;
    const ended = new Promise<void>((resolve) =>
      socket.once('end', () => {
        closedByServer = true;
        resolve();
      }),
    );
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    socket.write(
      `POST /api/images/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nX-XSRF-TOKEN: ${client.csrfToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${25 * MB}\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n`,
    );
    await eventually(
      async () => received,
      (text) => text.includes('\r\n\r\n{'),
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual(TOO_LARGE);
    // Still sending after the answer: every write goes through (a server that closed at once would
    // reset the connection, and the writes fail with EPIPE or ECONNRESET).
    for (let i = 0; i < 8; i++) {
      await new Promise<void>((resolve) => socket.write(Buffer.alloc(256 * 1024), () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(failure).toBeUndefined();
    expect(closedByServer).toBe(false);
    // Then the client goes quiet, and the server stops waiting and closes the connection itself.
    const started = performance.now();
    await ended;
    console.log(`the server closed the connection ${Math.round(performance.now() - started)} ms after the client stopped sending`);
    expect(failure).toBeUndefined();
    socket.destroy();
  });

  test('Expect: 100-continue → 413 before any of the body is sent', async () => {
    const { client } = await signUpUser(server.url, 'expecter');
    await client.get('/api/auth/');
    const upload = startSlowUpload(server.url, client, 25 * MB, { expectContinue: true });
    const answer = await upload.answer;
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(TOO_LARGE);
    expect(upload.continued()).toBe(false);
    upload.req.destroy();
  });

  test('Expect: 100-continue on an acceptable upload → 100 Continue, then it is stored', async () => {
    const { client } = await signUpUser(server.url, 'continuer');
    const stranger = new ApiClient(server.url);
    await stranger.get('/api/auth/');
    const anonymous = startSlowUpload(server.url, stranger, 1024, { expectContinue: true });
    const refused = await anonymous.answer;
    expect(refused.status).toBe(401);
    expect(anonymous.continued()).toBe(false);
    anonymous.req.destroy();

    await client.get('/api/auth/');
    const upload = startSlowUpload(server.url, client, 1024, { expectContinue: true });
    await eventually(
      async () => upload.continued(),
      (yes) => yes,
    );
    upload.finish();
    const answer = await upload.answer;
    // Received whole (zeros after the magic bytes are a damaged JPEG, which is what is judged).
    expect(answer.status).toBe(400);
    expect((answer.body as ErrorBody).message).toBe('That image is damaged or incomplete.');
  });
});
