// One export at a time per user on an instance (docs/import-export.md): a second GET /api/export
// while the first is still streaming answers 429 with Retry-After in the one error shape, another
// user's export is not held up, and the place is given back when the download ends, read to its end
// or cut short by the client.
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { mediaKey } from '../../backend/images/media-urls.ts';
import type { ApiClient } from '../support/client.ts';
import { newPin, signUpUser } from '../support/factories.ts';
import { timeUntil } from '../support/eventually.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();
/** Far more than the sockets' and fetch's buffers hold: an export left unread stays open. */
const ORIGINAL_BYTES = 64 * 1024 * 1024;
const RELEASE_MS = 5_000;
let alice: ApiClient;

/**
 * Gives the user's pin a stored original of ORIGINAL_BYTES: written straight into storage (a sparse
 * file, so nothing is really written) and the images table, as an upload would leave it.
 */
async function bigOriginal(client: ApiClient): Promise<void> {
  const pin = await newPin(client);
  const sha256 = `${pin.id.toString(16).padStart(8, '0')}${'b'.repeat(56)}`;
  const file = path.join(server.mediaDir as string, mediaKey(sha256, { original: 'jpeg' }));
  await mkdir(path.dirname(file), { recursive: true });
  const handle = await open(file, 'w');
  await handle.truncate(ORIGINAL_BYTES);
  await handle.close();
  const db = server.server.database.db;
  await db.insertInto('images').values({ sha256, format: 'jpeg', bytes: ORIGINAL_BYTES, width: 1, height: 1, placeholder: '' }).execute();
  await db.updateTable('pins').set({ image_sha256: sha256 }).where('id', '=', pin.id).execute();
}

const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const startExport = (client: ApiClient, signal?: AbortSignal) => fetch(`${server.url}/api/export`, { headers: { cookie: cookieOf(client) }, signal });

async function expectBusy(client: ApiClient): Promise<void> {
  const second = await startExport(client);
  expect(second.status).toBe(429);
  expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await second.json()) as ErrorBody;
  expect(body).toEqual({ message: expect.any(String), errors: [body.message], fields: {} });
}

/**
 * An export of the client's user, started once the instance lets it (an earlier one given up is
 * given back when the server sees the connection close), or the last refusal.
 */
async function openExport(client: ApiClient, signal?: AbortSignal): Promise<Response> {
  let response = await startExport(client, signal);
  await timeUntil(RELEASE_MS, async () => {
    if (response.status === 200) return true;
    await response.body?.cancel();
    response = await startExport(client, signal);
    return false;
  });
  return response;
}

beforeAll(async () => {
  ({ client: alice } = await signUpUser(server.url, 'exporter'));
  await bigOriginal(alice);
});

describe('one export at a time per user', () => {
  test('a second export while the first streams is refused, and works once the first was read to its end', async () => {
    const first = await openExport(alice);
    expect(first.status).toBe(200);
    // The first is still streaming: its body has not been read.
    await expectBusy(alice);
    // Someone else's export is not theirs to wait for.
    const { client: bob } = await signUpUser(server.url, 'other');
    const theirs = await startExport(bob);
    expect(theirs.status).toBe(200);
    await theirs.arrayBuffer();
    // Read to its end: the place is given back.
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(ORIGINAL_BYTES);
    const again = await openExport(alice);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  }, 60_000);

  test('a download the client gives up on gives its place back', async () => {
    const stop = new AbortController();
    const first = await openExport(alice, stop.signal);
    expect(first.status).toBe(200);
    await expectBusy(alice);
    stop.abort();
    const again = await openExport(alice);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  }, 60_000);
});
