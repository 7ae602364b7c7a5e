import { open, rm, stat } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import type { Import, ImportKind } from '../../contract/imports.ts';
import { IMPORT_LIMITS, IMPORT_MSG } from '../../contract/import-rules.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { readArchive } from './archive-items.ts';
import { keepArchive } from './files.ts';
import type { ItemData } from './items.ts';
import { looksLikeNetscape, readNetscapeFile } from './netscape.ts';
import { IMPORT_COLUMNS, toImport } from './progress.ts';
import { startNextImport } from './run-import.ts';
import { looksLikeZip, openArchive, refused } from './zip-archive.ts';

// POST /api/imports (docs/import-export.md): the file, already on disk, is recognised by its bytes
// (never its name), judged and read into items, all before anything is stored: a file refused (not
// one we import, a hostile ZIP, too many items, no room left for its owner) leaves no row and no
// file. A ZIP is then kept whole under IMPORT_DIR (its entries are inflated when their items' turns
// come). The import and its items are written in one transaction, and it is started unless another
// of the user's imports is ahead of it.

export interface BulkImportSettings {
  /** IMPORT_DIR: where a ZIP waits, whole, for its items. */
  dir: string;
  /** Imports one user may have queued or running. */
  openPerUser: number;
  /** What those may hold on disk together (their archives). */
  diskPerUserBytes: number;
}

const ITEM_ROWS_PER_INSERT = 500;
/** When a user who has no room left is told to come back: imports take minutes, not seconds. */
const NO_ROOM_RETRY_SECONDS = 60;

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

/**
 * Refuses (429) an import its owner has no room for: too many imports queued or running, or their
 * archives and this one over the disk allowance. In a transaction, the user's row is locked first,
 * so two imports sent at once are judged one after the other.
 */
async function makeRoom(db: Kysely<DB>, settings: BulkImportSettings, userId: number, bytes: number): Promise<void> {
  await sql`select 1 from users where id = ${userId} for update`.execute(db);
  const open = await db
    .selectFrom('imports')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.coalesce(eb.fn.sum<string>('archive_bytes'), sql<string>`0`).as('bytes')])
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow();
  const count = Number(open.count);
  if (count >= settings.openPerUser) throw new HttpError(429, IMPORT_MSG.tooManyOpen(count), { retryAfterSeconds: NO_ROOM_RETRY_SECONDS });
  const held = Number(open.bytes);
  if (held + bytes > settings.diskPerUserBytes) {
    throw new HttpError(429, IMPORT_MSG.diskAllowance(Math.ceil(held / (1024 * 1024))), { retryAfterSeconds: NO_ROOM_RETRY_SECONDS });
  }
}

/** JSON text for a `jsonb` column, which refuses the NUL character a hostile file may carry anywhere. */
const jsonText = (value: unknown): string => JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? inner.replaceAll('\u0000', '') : inner));

async function insertItems(db: Kysely<DB>, importId: number, items: ItemData[], from: number): Promise<void> {
  for (let start = 0; start < items.length; start += ITEM_ROWS_PER_INSERT) {
    const rows = items.slice(start, start + ITEM_ROWS_PER_INSERT).map((data, index) => ({ import_id: importId, position: from + start + index, data: jsonText(data) }));
    await db.insertInto('import_items').values(rows).execute();
  }
}

async function insertImport(db: Kysely<DB>, userId: number, kind: ImportKind, options: { filesDir?: string; bytes?: number; extra?: unknown } = {}): Promise<number> {
  const row = await db
    .insertInto('imports')
    .values({ user_id: userId, kind, files_dir: options.filesDir ?? null, archive_bytes: options.bytes ?? 0, extra: options.extra ? jsonText(options.extra) : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A bookmark file: read as a stream, its items written as they are found (in the import's transaction). */
async function fromNetscape(db: Kysely<DB>, settings: BulkImportSettings, userId: number, file: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await makeRoom(trx, settings, userId, 0);
    const id = await insertImport(trx, userId, 'netscape');
    let position = 0;
    const total = await readNetscapeFile(file, async (items) => {
      if (position + items.length > IMPORT_LIMITS.items) throw refused(IMPORT_MSG.tooManyItems);
      await insertItems(trx, id, items, position);
      position += items.length;
    });
    // A page that only looked like a bookmark file: no link in it.
    if (total === 0) throw refused(IMPORT_MSG.notRecognised);
    await trx.updateTable('imports').set({ total }).where('id', '=', id).execute();
    return id;
  });
}

/** A ZIP: judged and read (its manifest only), then kept whole in a folder of the import's own. */
async function fromZip(db: Kysely<DB>, settings: BulkImportSettings, userId: number, file: string): Promise<number> {
  const zip = await openArchive(file);
  const contents = await readArchive(zip).finally(() => zip.close());
  const { kind, items, extra } = contents;
  if (items.length > IMPORT_LIMITS.items) throw refused(IMPORT_MSG.tooManyItems);
  // Judged before the file is moved (a refusal costs no copy), and again under the lock.
  const { size } = await stat(file);
  await db.transaction().execute((trx) => makeRoom(trx, settings, userId, size));
  const kept = await keepArchive(settings.dir, file);
  try {
    return await db.transaction().execute(async (trx) => {
      await makeRoom(trx, settings, userId, kept.bytes);
      const id = await insertImport(trx, userId, kind, { filesDir: kept.dir, bytes: kept.bytes, extra });
      await insertItems(trx, id, items, 0);
      await trx.updateTable('imports').set({ total: items.length }).where('id', '=', id).execute();
      return id;
    });
  } catch (error) {
    await rm(kept.dir, { recursive: true, force: true });
    throw error;
  }
}

export async function createImport(ctx: ServiceContext, settings: BulkImportSettings, userId: number, file: string): Promise<Import> {
  const head = await readHead(file);
  let id: number;
  if (looksLikeZip(head)) id = await fromZip(ctx.db, settings, userId, file);
  else if (looksLikeNetscape(head.toString('utf8'))) id = await fromNetscape(ctx.db, settings, userId, file);
  else throw refused(IMPORT_MSG.notRecognised);
  // The user's import in turn gets a job: this one, or the one running (which starts this one when
  // it finishes). Sent either way, so a running import whose chain of jobs died (a worker that
  // kept failing) goes on when the user starts another.
  await startNextImport(ctx.jobs, ctx.db, userId);
  const row = await ctx.db.selectFrom('imports').select(IMPORT_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
  return toImport(row);
}
