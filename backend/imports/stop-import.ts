import type { ImportDetail } from '../../contract/imports.ts';
import { IMPORT_MSG, isImportOver } from '../../contract/import-rules.ts';
import type { ServiceContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { dropArchive } from './files.ts';
import { getImport } from './imports.service.ts';
import { applyPlacements } from './placement.ts';
import { recount, reportProgress } from './progress.ts';
import { startNextImport } from './run-import.ts';

// Stopping an import that is queued or running (docs/import-export.md): its waiting items are
// dropped, its archive goes, and what it made so far is put in its boards and kept (`cancelled`);
// DELETE /api/imports/{id} then undoes it, if that is what its owner chose. An item being made
// while the import stops is not made: its transaction finds its item gone and rolls back
// (import-item.ts), so an undo that follows the stop misses no pin.

/** Stops the caller's import; answers false when it was over already. */
export async function stopImport(ctx: ServiceContext, userId: number, id: number): Promise<boolean> {
  const stopped = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('imports').select(['id', 'user_id', 'kind', 'status', 'files_dir', 'extra']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row || row.user_id !== userId) throw notFound('Import');
    if (isImportOver(row.status)) return undefined;
    await trx.deleteFrom('import_items').where('import_id', '=', id).where('state', '=', 'pending').execute();
    await trx.updateTable('imports').set({ status: 'cancelled', finished_at: new Date() }).where('id', '=', id).execute();
    return row;
  });
  if (!stopped) return false;
  await dropArchive(ctx.db, id, stopped.files_dir);
  await applyPlacements(ctx, stopped);
  await recount(ctx.db, id);
  await reportProgress(ctx.db, ctx.events, id, { final: true });
  // It may have been the one in turn: the next one starts instead.
  await startNextImport(ctx.jobs, ctx.db, userId);
  return true;
}

/** POST /api/imports/{id}/cancel: stops it, keeping what it made so far. */
export async function cancelImport(ctx: ServiceContext, userId: number, id: number): Promise<ImportDetail> {
  if (!(await stopImport(ctx, userId, id))) throw new HttpError(409, IMPORT_MSG.notRunning);
  return getImport(ctx.db, userId, id);
}
