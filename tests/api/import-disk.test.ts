import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import { IMPORT_LIMITS, IMPORT_MSG } from '../../contract/import-rules.ts';
import type { Import, ImportDetail, ImportUndone } from '../../contract/imports.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { honestZip, rawEntry, rawZip } from '../support/zip-fixtures.ts';

// What an import may hold on the server (docs/import-export.md): a ZIP is judged as a whole (small
// entries included) and kept whole, never inflated onto the disk; an entry is inflated when its
// item's turn comes. A user may have IMPORTS_OPEN_PER_USER imports queued or running, holding at
// most IMPORT_DISK_PER_USER_MB of archives; an import holds at most IMPORT_LIMITS.items items; and
// a running import can be stopped, keeping or undoing what it made.
//
// The image budget is 2 per user here, so a ZIP of more images stops, running, after its second
// item and waits for the budget's window: an import that is still running when the test looks.

const EVENTUALLY_MS = 60_000;

const server = useTestServer({ env: { IMAGE_BUDGET_PER_USER: '2', IMPORTS_OPEN_PER_USER: '2', IMPORT_DISK_PER_USER_MB: '1' } });

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > EVENTUALLY_MS) throw new Error(`${what}: not so after ${EVENTUALLY_MS} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const db = () => server.server.database.db;

async function importRow(id: number) {
  return db().selectFrom('imports').select(['files_dir', 'archive_bytes', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
}

async function pinsOf(userId: number): Promise<number> {
  const row = await db()
    .selectFrom('pins')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function nothingOf(userId: number): Promise<void> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from imports where user_id = ${userId}`.execute(db());
  expect(rows[0]?.n).toBe(0);
  const dirs = await readdir(server.config.bulkImports.dir).catch(() => [] as string[]);
  const held = await db().selectFrom('imports').select('files_dir').where('files_dir', 'is not', null).execute();
  // Every folder under IMPORT_DIR belongs to an import that holds it: none was left by this one.
  expect(dirs.map((name) => path.join(path.resolve(server.config.bulkImports.dir), name)).sort()).toEqual(held.map((row) => row.files_dir).sort());
}

async function photosZip(count: number): Promise<Buffer> {
  const photos = await Promise.all(Array.from({ length: count }, (_, i) => jpeg(200 + i * 7, 150 + i * 3)));
  return honestZip(photos.map((data, i) => ({ name: `Holiday/photo-${i}.jpg`, data })));
}

async function postZip(client: ApiClient, bytes: Buffer) {
  return client.upload<{ import: Import } & ErrorBody>('/api/imports', { bytes, name: 'pins.zip', type: 'application/zip' });
}

async function runningWith(client: ApiClient, id: number, done: number): Promise<ImportDetail> {
  return eventually(
    async () => (await client.get<ImportDetail>(`/api/imports/${id}`)).body,
    (detail) => detail.import.status === 'running' && detail.import.done === done,
    `import ${id} running with ${done} done`,
  );
}

describe('a ZIP is judged whole and kept whole', () => {
  test('two thousand 64 KiB entries of zeros (each too small to be judged alone) are refused as a whole, nothing kept', async () => {
    const { client, user } = await signUpUser(server.url, 'zeros');
    const zero = rawEntry('zero-0.png', Buffer.alloc(IMPORT_LIMITS.zipRatioFloorBytes));
    const bomb = rawZip(Array.from({ length: 2_000 }, (_, i) => ({ ...zero, name: `zeros/zero-${i}.png` })));
    const started = Date.now();
    const answer = await postZip(client, bomb);
    console.log(`a ${(bomb.length / 1e6).toFixed(2)} MB ZIP declaring ${((2_000 * IMPORT_LIMITS.zipRatioFloorBytes) / 1e6).toFixed(0)} MB: ${answer.status} in ${Date.now() - started} ms`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(IMPORT_MSG.zipArchiveRatio);
    await nothingOf(user.id);
  });

  test('a ZIP waits as the file that was sent, its images inflated when their turn comes; stopped, it keeps what it made and lets go of its file', async () => {
    const { client, user } = await signUpUser(server.url, 'keeper');
    const zip = await photosZip(5);
    const answer = await postZip(client, zip);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const id = answer.body.import.id;
    const row = await importRow(id);
    expect(row.files_dir).not.toBeNull();
    // The folder holds the archive as it came, and nothing inflated from it.
    expect(await readdir(row.files_dir as string)).toEqual(['archive.zip']);
    expect((await stat(path.join(row.files_dir as string, 'archive.zip'))).size).toBe(zip.length);
    expect(Number(row.archive_bytes)).toBe(zip.length);

    // Two images (the budget), then it waits, running.
    await runningWith(client, id, 2);
    expect(await readdir(row.files_dir as string)).toEqual(['archive.zip']);

    const stopped = await client.post<ImportDetail>(`/api/imports/${id}/cancel`);
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.import).toMatchObject({ status: 'cancelled', done: 2, failed: 0, total: 5 });
    expect(await pinsOf(user.id)).toBe(2);
    const after = await importRow(id);
    expect(after).toMatchObject({ files_dir: null, status: 'cancelled' });
    expect(Number(after.archive_bytes)).toBe(0);
    await expect(stat(row.files_dir as string)).rejects.toMatchObject({ code: 'ENOENT' });
    // The pins it made went in their board.
    const boards = await db().selectFrom('boards').select(['name', 'pin_count']).where('user_id', '=', user.id).execute();
    expect(boards).toEqual([{ name: 'Holiday', pin_count: 2 }]);
    // Over: it cannot be stopped again.
    const again = await client.post<ErrorBody>(`/api/imports/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(IMPORT_MSG.notRunning);
  });

  test('a running import stopped by DELETE is undone: its pins and boards go, and so does its file', async () => {
    const { client, user } = await signUpUser(server.url, 'undoer');
    const answer = await postZip(client, await photosZip(4));
    expect(answer.status).toBe(202);
    const id = answer.body.import.id;
    const dir = (await importRow(id)).files_dir as string;
    await runningWith(client, id, 2);
    const undone = await client.delete<ImportUndone>(`/api/imports/${id}`);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body).toEqual({ removedPins: 2, removedBoards: 1, keptPins: 0 });
    expect(await pinsOf(user.id)).toBe(0);
    expect((await client.get(`/api/imports/${id}`)).status).toBe(404);
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('what one user may have open', () => {
  let client: ApiClient;
  let userId: number;
  beforeAll(async () => {
    ({
      client,
      user: { id: userId },
    } = await signUpUser(server.url, 'hoarder'));
  });

  /** Three 200 KB entries that do not compress: a 600 KB archive that stops, running, at its third item. */
  const heavyZip = () => honestZip([0, 1, 2].map((i) => ({ name: `noise-${i}.png`, data: randomBytes(200_000) })));
  const bookmarks = (n: number) => Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://example.com/${n}" IMAGE="https://example.com/${n}.jpg">Link ${n}</A>\n</DL><p>\n`);

  test('archives held count against the disk allowance, and imports queued or running against the cap; stopping one makes room', async () => {
    const first = await postZip(client, await heavyZip());
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    // Its two images from the budget are spent on what is not an image; then it waits, running, holding 600 KB.
    await eventually(
      async () => (await client.get<ImportDetail>(`/api/imports/${first.body.import.id}`)).body.import,
      (imp) => imp.status === 'running' && imp.failed === 2,
      'the first ZIP waiting',
    );

    const overAllowance = await postZip(client, await heavyZip());
    expect(overAllowance.status).toBe(429);
    expect(overAllowance.body.message).toBe(IMPORT_MSG.diskAllowance(1));
    expect(Number(overAllowance.headers.get('retry-after'))).toBeGreaterThan(0);

    // A bookmark file holds no file: it is queued behind the ZIP.
    const second = await client.upload<{ import: Import }>('/api/imports', { bytes: bookmarks(1), name: 'bookmarks.html', type: 'text/html' });
    expect(second.status).toBe(202);
    expect(second.body.import.status).toBe('queued');
    const third = await client.upload<ErrorBody>('/api/imports', { bytes: bookmarks(2), name: 'bookmarks.html', type: 'text/html' });
    expect(third.status).toBe(429);
    expect(third.body.message).toBe(IMPORT_MSG.tooManyOpen(2));
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from imports where user_id = ${userId}`.execute(db());
    expect(rows[0]?.n).toBe(2);

    // Stopped, the ZIP lets go of its file and its place.
    expect((await client.post(`/api/imports/${first.body.import.id}/cancel`)).status).toBe(200);
    const later = await postZip(client, await heavyZip());
    expect(later.status, JSON.stringify(later.body)).toBe(202);
  });

  test(`a file of more than ${IMPORT_LIMITS.items.toLocaleString('en-US')} items is refused, nothing stored`, async () => {
    const { client: other, user } = await signUpUser(server.url, 'collector');
    const links = Array.from({ length: IMPORT_LIMITS.items + 1 }, (_, n) => `<DT><A HREF="https://example.com/${n}">Link ${n}</A>`).join('\n');
    const file = Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${links}\n</DL><p>\n`);
    const answer = await other.upload<ErrorBody>('/api/imports', { bytes: file, name: 'bookmarks.html', type: 'text/html' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(IMPORT_MSG.tooManyItems);
    await nothingOf(user.id);
  });
});
