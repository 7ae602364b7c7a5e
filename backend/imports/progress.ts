import { type Kysely, sql } from 'kysely';
import type { Import, ImportProgress } from '../../contract/imports.ts';
import { IMPORT_LIMITS } from '../../contract/import-rules.ts';
import type { DB } from '../../db/schema.ts';
import type { EventPublisher } from '../bus/event-bus.ts';

// An import's counts, kept on its row and told to its user's sockets (`import:progress`) at most
// once a second per import, whichever instance runs its batches: the row's `progress_at` says when
// it was last told, and only the update that moves it tells.

export const IMPORT_COLUMNS = ['id', 'user_id', 'kind', 'status', 'total', 'done', 'failed', 'created_at'] as const;

export function toImport(row: { id: number; kind: Import['kind']; status: Import['status']; total: number; done: number; failed: number; created_at: Date }): Import {
  return { id: row.id, kind: row.kind, status: row.status, total: row.total, done: row.done, failed: row.failed, createdAt: row.created_at.toISOString() };
}

/** Sets the import's counts from its items (so a batch that died half-way leaves no count wrong). */
export async function recount(db: Kysely<DB>, importId: number): Promise<void> {
  await sql`
    update imports set
      done = (select count(*) from import_items where import_id = ${importId} and state = 'done'),
      failed = (select count(*) from import_items where import_id = ${importId} and state = 'failed')
    where id = ${importId}`.execute(db);
}

/**
 * Tells the user's sockets where the import stands. `final`: a change of status, which must reach
 * them: it waits out the rest of the second instead of being skipped.
 */
export async function reportProgress(db: Kysely<DB>, events: EventPublisher, importId: number, options: { final?: boolean } = {}): Promise<void> {
  const interval = IMPORT_LIMITS.progressIntervalMs;
  if (options.final) {
    const row = await db
      .selectFrom('imports')
      .select(sql<number>`extract(epoch from (now() - progress_at)) * 1000`.as('since'))
      .where('id', '=', importId)
      .executeTakeFirst();
    const since = row?.since === null || row?.since === undefined ? interval : Number(row.since);
    if (since < interval) await new Promise((resolve) => setTimeout(resolve, Math.ceil(interval - since)));
  }
  let update = db
    .updateTable('imports')
    .set({ progress_at: sql<Date>`now()` })
    .where('id', '=', importId);
  // A final report is always told: having waited out its second, it must not be lost to a timer that
  // fired a fraction of a millisecond before the database's clock agreed.
  if (!options.final) {
    update = update.where((eb) => eb.or([eb('progress_at', 'is', null), eb('progress_at', '<=', sql<Date>`now() - ${`${interval} milliseconds`}::interval`)]));
  }
  const row = await update.returning(['user_id', 'total', 'done', 'failed', 'status']).executeTakeFirst();
  if (!row) return;
  const progress: ImportProgress = { importId, total: row.total, done: row.done, failed: row.failed, status: row.status };
  events.publish('import.progress', { userId: row.user_id, progress });
}
