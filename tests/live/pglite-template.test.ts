import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openPGlite, TEMPLATE_INFO, type TemplateInfo } from '../../db/pglite.ts';

// A new embedded database is unpacked from db/pglite-template/ instead of running PGlite's initdb
// (docs/footprint.md). The template is used only by the PGlite build that made it: after an
// upgrade the first check fails until `node scripts/pglite-template.ts` is run (until then new
// databases still work, through initdb, at about 1 GB).

const parent = mkdtempSync(path.join(tmpdir(), 'pinboard-template-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
const info = JSON.parse(readFileSync(TEMPLATE_INFO, 'utf8')) as TemplateInfo;

test('a new data folder is made from the template, by the PGlite that made it, with the embedded settings', async () => {
  const dir = path.join(parent, 'fresh');
  const started = performance.now();
  const pglite = await openPGlite(dir);
  try {
    console.log(`opened a new folder in ${Math.round(performance.now() - started)} ms`);
    const { rows } = await pglite.query<{ version: string }>('select version()');
    expect(rows[0]?.version, 'db/pglite-template is of another PGlite build: run node scripts/pglite-template.ts').toBe(info.version);
    const databases = await pglite.query<{ datname: string }>('select datname from pg_database order by datname');
    expect(databases.rows.map((row) => row.datname)).toEqual(['postgres', 'template0', 'template1']);
    const buffers = await pglite.query<{ shared_buffers: string }>('show shared_buffers');
    expect(buffers.rows[0]?.shared_buffers).toBe('16MB');
    await pglite.exec('create table notes (id serial primary key, text text not null)');
    await pglite.query('insert into notes (text) values ($1)', ['kept']);
  } finally {
    await pglite.close();
  }
  // Opened again, it is the same database (not unpacked a second time over it).
  const again = await openPGlite(dir, { shared_buffers: '8MB' });
  try {
    expect((await again.query<{ text: string }>('select text from notes')).rows).toEqual([{ text: 'kept' }]);
    expect((await again.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]?.shared_buffers).toBe('8MB');
  } finally {
    await again.close();
  }
});

test("an in-memory database (the test servers') is made from the template too", async () => {
  const pglite = await openPGlite(undefined);
  try {
    const { rows } = await pglite.query<{ version: string }>('select version()');
    expect(rows[0]?.version).toBe(info.version);
  } finally {
    await pglite.close();
  }
});
