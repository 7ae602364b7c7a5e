import { rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { ImportDetail, ImportFailure, ImportList } from '../../contract/imports.ts';
import { IMPORT_LIMITS, IMPORT_MSG, IMPORT_REASONS } from '../../contract/import-rules.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { ImportExtra } from './extra.ts';
import { IMPORT_COLUMNS, reportProgress, toImport } from './progress.ts';
import { startNextImport } from './run-import.ts';

// Reading an import, trying its failures again (docs/import-export.md). Only its owner sees it:
// anyone else gets 404, as for an import that does not exist.

async function ownImport(db: Kysely<DB>, userId: number, id: number) {
  const row = await db
    .selectFrom('imports')
    .select([...IMPORT_COLUMNS, 'extra', 'files_dir'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.user_id !== userId) throw notFound('Import');
  return row;
}

export async function listImports(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: PageParams): Promise<ImportList> {
  const page = keyset(cursors, `imports:user:${userId}`, query);
  let select = db
    .selectFrom('imports')
    .select(IMPORT_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.id);
  return { imports: items.map(toImport), nextCursor };
}

/** Board members an export named: listed back, as nobody is invited on someone else's behalf. */
function notReinvited(extra: unknown): ImportFailure[] {
  const parsed = ImportExtra.safeParse(extra);
  if (!parsed.success) return [];
  return parsed.data.boards.flatMap((board) => board.members.map((username) => ({ item: `${board.name}: ${username}`, reason: IMPORT_REASONS.notReinvited })));
}

export async function getImport(db: Kysely<DB>, userId: number, id: number): Promise<ImportDetail> {
  const row = await ownImport(db, userId, id);
  const members = notReinvited(row.extra).slice(0, IMPORT_LIMITS.failuresListed);
  const failed = await db
    .selectFrom('import_items')
    .select(['data', 'reason'])
    .where('import_id', '=', id)
    .where('state', '=', 'failed')
    .orderBy('position')
    .limit(IMPORT_LIMITS.failuresListed - members.length)
    .execute();
  const failures = failed.map((item) => ({ item: String((item.data as { label?: unknown }).label ?? ''), reason: item.reason ?? '' }));
  return { import: toImport(row), failures: [...members, ...failures] };
}

/** Failed items go back in line, tried afresh; a finished import runs again for them (its boards are filled again too). */
export async function retryImport(ctx: ServiceContext, userId: number, id: number): Promise<ImportDetail> {
  const row = await ownImport(ctx.db, userId, id);
  if (row.status === 'queued' || row.status === 'running') throw new HttpError(409, IMPORT_MSG.retryWhileRunning);
  const retried = await ctx.db.transaction().execute(async (trx) => {
    const items = await trx
      .updateTable('import_items')
      .set({ state: 'pending', reason: null, attempts: 0, not_before: null })
      .where('import_id', '=', id)
      .where('state', '=', 'failed')
      .returning('position')
      .execute();
    if (!items.length) return 0;
    await trx.updateTable('imports').set({ status: 'queued', failed: 0, finished_at: null }).where('id', '=', id).execute();
    return items.length;
  });
  if (!retried) throw new HttpError(409, IMPORT_MSG.nothingToRetry);
  await startNextImport(ctx.jobs, ctx.db, userId);
  await reportProgress(ctx.db, ctx.events, id, { final: true });
  return getImport(ctx.db, userId, id);
}

/** The folder of an import's extracted entries, gone with the import. */
export async function removeFiles(filesDir: string | null): Promise<void> {
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
}
