// `node scripts/pglite-template.ts`: remakes db/pglite-template/ — the folder PGlite's own initdb
// makes, which db/pglite.ts unpacks for every new embedded database instead of running initdb
// (why: db/pglite.ts). Run it after upgrading @electric-sql/pglite: until then a new database falls
// back to initdb (slower, ~1 GB at its peak), and tests/api/pglite-template.test.ts says so. It
// needs about 1 GB of memory and half a minute (brotli at its best, with a window that spans the
// three databases).
import { mkdirSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { TEMPLATE_DIR, TEMPLATE_INFO, TEMPLATE_TAR, type TemplateInfo } from '../db/pglite.ts';

const pglite = await PGlite.create();
const { rows } = await pglite.query<{ version: string }>('select version()');
// A clean shutdown point: nothing for the first start to replay.
await pglite.query('checkpoint');
const tar = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
await pglite.close();
const packed = brotliCompressSync(tar, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: tar.byteLength },
});
const info: TemplateInfo = { version: rows[0]?.version ?? '' };
mkdirSync(TEMPLATE_DIR, { recursive: true });
writeFileSync(TEMPLATE_TAR, packed);
writeFileSync(TEMPLATE_INFO, `${JSON.stringify(info, null, 2)}\n`);
console.log(`${TEMPLATE_TAR}: ${(tar.byteLength / 2 ** 20).toFixed(1)} MB tar, ${(packed.byteLength / 2 ** 20).toFixed(2)} MB brotli; ${info.version}`);
