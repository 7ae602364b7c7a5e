import { sql } from 'kysely';
import type { ImportUndone } from '../../contract/imports.ts';
import { deleteBoard } from '../boards/boards.service.ts';
import { supersedeChanges } from '../changes/supersede.ts';
import { write } from '../changes/write.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { removeFiles } from './imports.service.ts';
import { startNextImport } from './run-import.ts';
import { stopImport } from './stop-import.ts';

// DELETE /api/imports/{id} (docs/import-export.md): an import that is queued or running is stopped
// first (stop-import.ts); then it is undone — the pins it made that nobody edited since are deleted
// (their favorites, comments and board entries with them), then the boards it made that are left
// as it made them (not renamed, nobody invited, no pin of anyone else's in them) — and the import
// is gone from the list. A pin edited since, or a board in use, stays.

/** Pins deleted per transaction: each is a change of its own in the log. */
const CHUNK = 200;

export async function undoImport(ctx: ServiceContext, userId: number, id: number): Promise<ImportUndone> {
  const row = await ctx.db.selectFrom('imports').select(['user_id', 'files_dir']).where('id', '=', id).executeTakeFirst();
  if (!row || row.user_id !== userId) throw notFound('Import');
  await stopImport(ctx, userId, id);
  let removedPins = 0;
  for (;;) {
    const deleted = await write(ctx, async (trx, record) => {
      const ids = await trx
        .selectFrom('imported_pins')
        .innerJoin('pins', 'pins.id', 'imported_pins.pin_id')
        .select('pins.id')
        .where('imported_pins.import_id', '=', id)
        .where('pins.user_id', '=', userId)
        .where(sql<boolean>`pins.updated_at = imported_pins.pin_updated_at`)
        .orderBy('pins.id')
        .limit(CHUNK)
        .execute();
      if (!ids.length) return 0;
      const gone = await trx
        .deleteFrom('pins')
        .where(
          'id',
          'in',
          ids.map((pin) => pin.id),
        )
        .where('user_id', '=', userId)
        .returning('id')
        .execute();
      for (const pin of gone) {
        // As deletePin does: its text, and its comments', leave the log with it.
        await supersedeChanges(trx, { pinDeleted: pin.id });
        record('pin:deleted', { pinId: pin.id }, 'feed');
      }
      return gone.length;
    });
    removedPins += deleted;
    if (deleted < CHUNK) break;
  }
  const keptPins = await ctx.db
    .selectFrom('imported_pins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('import_id', '=', id)
    .executeTakeFirstOrThrow();
  const boards = await ctx.db
    .selectFrom('import_boards')
    .innerJoin('boards', 'boards.id', 'import_boards.board_id')
    .select('boards.id')
    .where('import_boards.import_id', '=', id)
    .where(sql<boolean>`boards.updated_at = import_boards.board_updated_at`)
    .where('boards.pin_count', '=', 0)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('board_members').select('board_members.user_id').whereRef('board_members.board_id', '=', 'boards.id'))))
    .execute();
  for (const board of boards) await deleteBoard(ctx, userId, board.id);
  await ctx.db.deleteFrom('imports').where('id', '=', id).execute();
  // An import made before archives were dropped at its end may still hold its folder.
  await removeFiles(row.files_dir);
  await startNextImport(ctx.jobs, ctx.db, userId);
  return { removedPins, removedBoards: boards.length, keptPins: Number(keptPins.n) };
}
