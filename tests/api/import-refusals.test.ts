import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import { IMPORT_MSG } from '../../contract/imports.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { rawEntry, rawZip } from '../support/zip-fixtures.ts';

// Hostile or wrong files sent to POST /api/imports (docs/import-export.md): refused with 400 and the
// error shape, with nothing stored (no import, no item, no file kept), and the server still answers.

let client: ApiClient;

const server = useTestServer();
beforeAll(async () => {
  ({ client } = await signUpUser(server.url, 'hostile'));
}, 60_000);

async function nothingStored(): Promise<void> {
  const db = server.server.database.db;
  const { rows } = await sql<{ imports: number; items: number }>`select (select count(*) from imports)::int as imports, (select count(*) from import_items)::int as items`.execute(db);
  expect(rows[0]).toEqual({ imports: 0, items: 0 });
  expect(await readdir(server.config.bulkImports.dir).catch(() => [])).toEqual([]);
}

const png = Buffer.from('not really a png');
const cases: Array<[string, () => Buffer, string]> = [
  ['a ../ entry path', () => rawZip([rawEntry('photos/ok.png', png), rawEntry('../escape.png', png)]), IMPORT_MSG.zipUnsafePath],
  ['an absolute entry path', () => rawZip([rawEntry('/etc/cron.d/x.png', png)]), IMPORT_MSG.zipUnsafePath],
  ['a drive letter', () => rawZip([rawEntry('C:/Windows/x.png', png)]), IMPORT_MSG.zipUnsafePath],
  [
    'a 1 MB ZIP that inflates to 5 GB',
    () => {
      const body = rawEntry('zeros-0.png', Buffer.alloc(1), { declaredSize: 1024 ** 3 });
      return rawZip([body, ...[1, 2, 3, 4].map((n) => ({ ...body, name: `zeros-${n}.png`, sameAs: 0 }))]);
    },
    IMPORT_MSG.zipRatio,
  ],
  ['20,000 entries', () => rawZip(Array.from({ length: 20_000 }, (_, i) => rawEntry(`f${i}.png`, png))), IMPORT_MSG.zipTooManyEntries],
  ['an entry lying about its size', () => rawZip([rawEntry('liar.png', Buffer.alloc(20 * 1024 * 1024), { declaredSize: 60 * 1024 })]), IMPORT_MSG.zipRatio],
  ['a text file renamed .html', () => Buffer.from('Dear diary, today I renamed this file to bookmarks.html.\n'), IMPORT_MSG.notRecognised],
  ['a text file renamed .zip', () => Buffer.from('PK? no, just text'), IMPORT_MSG.notRecognised],
  ['a ZIP of notes, no image', () => rawZip([rawEntry('notes.txt', Buffer.from('hello'))]), IMPORT_MSG.notRecognised],
  ['a bookmark file with no link', () => Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n</DL><p>'), IMPORT_MSG.notRecognised],
];

describe('POST /api/imports refuses, storing nothing', () => {
  test.each(cases)('%s', async (_name, make, message) => {
    const bytes = make();
    const started = Date.now();
    const answer = await client.upload('/api/imports', { bytes, name: 'import.zip' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message, errors: [message], fields: { file: message } });
    console.log(`${_name}: ${(bytes.length / 1024).toFixed(0)} KB refused in ${Date.now() - started} ms`);
    await nothingStored();
    // Still answering.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await client.get('/api/imports')).status).toBe(200);
  });

  test('a file over 200 MB is refused (413) before its body is read', async () => {
    // Declared, not sent: the answer comes from the Content-Length alone.
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/api/imports`, {
        method: 'POST',
        headers: { cookie, 'x-xsrf-token': client.csrfToken ?? '', 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(201 * 1024 * 1024) },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: IMPORT_MSG.tooLarge, errors: [IMPORT_MSG.tooLarge], fields: { file: IMPORT_MSG.tooLarge } });
    await nothingStored();
  });

  test('a write token may start an import; a read token may not', async () => {
    const file = Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://example.com/">A link</A></DL>');
    const post = (secret: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)], { type: 'text/html' }), 'bookmarks.html');
      return fetch(`${server.url}/api/imports`, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: form });
    };
    const write = await client.post<{ secret: string }>('/api/tokens', { name: 'Importer', scope: 'write' });
    const read = await client.post<{ secret: string }>('/api/tokens', { name: 'Reader', scope: 'read' });
    expect((await post(read.body.secret)).status).toBe(403);
    const started = await post(write.body.secret);
    expect(started.status).toBe(202);
    const { import: created } = (await started.json()) as { import: { id: number } };
    // Its one link has no image: it finishes as soon as it runs. Then it can be undone.
    for (let tries = 0; (await client.get<{ import: { status: string } }>(`/api/imports/${created.id}`)).body.import.status.match(/queued|running/); tries++) {
      if (tries > 1200) throw new Error('the import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await client.delete(`/api/imports/${created.id}`)).status).toBe(200);
    const detail = await fetch(`${server.url}/api/imports/${created.id}`, { headers: { authorization: `Bearer ${read.body.secret}` } });
    expect(detail.status).toBe(404);
    await nothingStored();
  });

  test('no file, and not signed in', async () => {
    expect((await client.request('POST', '/api/imports', { form: new FormData() })).status).toBe(400);
    // With the anti-forgery token a script gets from any GET, but no session.
    const anonymous = await new ApiClient(server.url).upload('/api/imports', {
      bytes: Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://x.example/">x</A></DL>'),
      name: 'b.html',
    });
    expect(anonymous.status).toBe(401);
    await nothingStored();
  });
});
