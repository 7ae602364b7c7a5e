import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Import, ImportKind } from '../../contract/imports.ts';
import { IMPORT_MSG } from '../../contract/import-rules.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { readArchive } from './archive-items.ts';
import type { ItemData } from './items.ts';
import { looksLikeNetscape, readNetscapeFile } from './netscape.ts';
import { IMPORT_COLUMNS, toImport } from './progress.ts';
import { startNextImport } from './run-import.ts';
import { looksLikeZip, openArchive, refused } from './zip-archive.ts';

// POST /api/imports (docs/import-export.md): the file, already on disk, is recognised by its bytes
// (never its name), judged and read into items, all before anything is stored: a file refused (not
// one we import, a hostile ZIP) leaves no row and no file. Then the import and its items are
// written in one transaction, and it is started unless another of the user's imports is ahead of it.

const ITEM_ROWS_PER_INSERT = 500;

async function readHead(file: string, bytes = 8192): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function insertItems(db: Kysely<DB>, importId: number, items: ItemData[], from: number): Promise<void> {
  for (let start = 0; start < items.length; start += ITEM_ROWS_PER_INSERT) {
    const rows = items.slice(start, start + ITEM_ROWS_PER_INSERT).map((data, index) => ({ import_id: importId, position: from + start + index, data: JSON.stringify(data) }));
    await db.insertInto('import_items').values(rows).execute();
  }
}

async function insertImport(db: Kysely<DB>, userId: number, kind: ImportKind, options: { filesDir?: string; extra?: unknown } = {}): Promise<number> {
  const row = await db
    .insertInto('imports')
    .values({ user_id: userId, kind, files_dir: options.filesDir ?? null, extra: options.extra ? JSON.stringify(options.extra) : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A bookmark file: read as a stream, its items written as they are found (in the import's transaction). */
async function fromNetscape(db: Kysely<DB>, userId: number, file: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const id = await insertImport(trx, userId, 'netscape');
    let position = 0;
    const total = await readNetscapeFile(file, async (items) => {
      await insertItems(trx, id, items, position);
      position += items.length;
    });
    // A page that only looked like a bookmark file: no link in it.
    if (total === 0) throw refused(IMPORT_MSG.notRecognised);
    await trx.updateTable('imports').set({ total }).where('id', '=', id).execute();
    return id;
  });
}

/** A ZIP: judged, then its entries inflated into a folder of the import's own under `filesRoot`. */
async function fromZip(db: Kysely<DB>, userId: number, file: string, filesRoot: string): Promise<number> {
  const filesDir = path.join(path.resolve(filesRoot), randomUUID());
  await mkdir(filesDir, { recursive: true, mode: 0o700 });
  try {
    const zip = await openArchive(file);
    let contents: Awaited<ReturnType<typeof readArchive>>;
    try {
      contents = await readArchive(zip, filesDir);
    } finally {
      zip.close();
    }
    await rm(path.join(filesDir, 'text.tmp'), { force: true });
    const { kind, items, extra } = contents;
    return await db.transaction().execute(async (trx) => {
      const id = await insertImport(trx, userId, kind, { filesDir, extra });
      await insertItems(trx, id, items, 0);
      await trx.updateTable('imports').set({ total: items.length }).where('id', '=', id).execute();
      return id;
    });
  } catch (error) {
    await rm(filesDir, { recursive: true, force: true });
    throw error;
  }
}

export async function createImport(ctx: ServiceContext, deps: { filesRoot: string }, userId: number, file: string): Promise<Import> {
  const head = await readHead(file);
  let id: number;
  if (looksLikeZip(head)) id = await fromZip(ctx.db, userId, file, deps.filesRoot);
  else if (looksLikeNetscape(head.toString('utf8'))) id = await fromNetscape(ctx.db, userId, file);
  else throw refused(IMPORT_MSG.notRecognised);
  // The user's import in turn gets a job: this one, or the one running (which starts this one when
  // it finishes). Sent either way, so a running import whose chain of jobs died (a worker that
  // kept failing) goes on when the user starts another.
  await startNextImport(ctx.jobs, ctx.db, userId);
  const row = await ctx.db.selectFrom('imports').select(IMPORT_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
  return toImport(row);
}
