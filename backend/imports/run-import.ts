import pLimit from 'p-limit';
import type { Kysely } from 'kysely';
import { isImportOver } from '../../contract/import-rules.ts';
import type { DB } from '../../db/schema.ts';
import type { JobContext, JobSender } from '../jobs/define.ts';
import type { AppJobs } from '../job-catalog.ts';
import { applyPlacements } from './placement.ts';
import { type ImportItemDeps, importItem, type ItemOutcome, serviceFetching } from './import-item.ts';
import { recount, reportProgress } from './progress.ts';
import { archiveEntries, dropArchive } from './files.ts';

// Runs imports (docs/import-export.md): a job `imports.run {importId}` does one batch of the
// import's items and sends itself again for the next, until none is left; then the import's boards
// (and an export's favorites and comments) are put in place and the user's next import is started.
// One import per user runs at a time: a job whose import is not in turn (importInTurn) stops, and
// the import that finishes starts the next. Jobs go in the user's group, so the
// queue runs one of them at a time per user and other users' imports use the other workers; and as
// each batch is short and sends the next as a new job, the queue takes the users' imports in turns.

/** Items per job, and how many of them are worked on at once (fetches overlap; processing is bounded by the image pipeline). */
const BATCH = 24;
const PARALLEL = 4;
/**
 * No item of a batch starts after this long: with a fetch's own deadline (15 s) the batch ends well
 * inside any job lease, and the worker goes back to the queue, where other users' imports wait.
 */
const BATCH_START_WINDOW_MS = 15_000;

export type ImportJobDeps = ImportItemDeps;

export const importGroup = (userId: number) => `imports:${userId}`;

/**
 * Whose turn it is among the user's imports: the one running, else the oldest queued (a retried
 * import waits behind the one running, then goes by its age). Undefined when none waits.
 */
export async function importInTurn(db: Kysely<DB>, userId: number): Promise<{ id: number; status: string } | undefined> {
  return db
    .selectFrom('imports')
    .select(['id', 'status'])
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'running'])
    .orderBy((eb) => eb.case().when('status', '=', 'running').then(0).else(1).end())
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** Sends the job of the user's import in turn, if there is one. */
export async function startNextImport(jobs: JobSender<AppJobs>, db: Kysely<DB>, userId: number): Promise<void> {
  const next = await importInTurn(db, userId);
  if (next) await jobs.send(db, 'imports.run', { importId: next.id }, { group: importGroup(userId) });
}

export async function runImport(deps: ImportJobDeps, data: { importId: number }, ctx: JobContext): Promise<void> {
  const { db } = ctx;
  const found = await db.selectFrom('imports').selectAll().where('id', '=', data.importId).executeTakeFirst();
  if (!found || isImportOver(found.status)) return;
  const imp = found;
  const again = (seconds = 0) => ctx.jobs.send(db, 'imports.run', { importId: imp.id }, { group: importGroup(imp.user_id), ...(seconds > 0 ? { startAfterSeconds: Math.ceil(seconds) } : {}) });
  // Not its turn: the import in turn starts it when it finishes.
  if ((await importInTurn(db, imp.user_id))?.id !== imp.id) return;
  if (imp.status === 'queued') {
    await db.updateTable('imports').set({ status: 'running', started_at: new Date() }).where('id', '=', imp.id).where('status', '=', 'queued').execute();
    await reportProgress(db, ctx.events, imp.id, { final: true });
  }

  const due = await db
    .selectFrom('import_items')
    .select(['position', 'data', 'attempts'])
    .where('import_id', '=', imp.id)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', new Date())]))
    .orderBy('position')
    .limit(BATCH)
    .execute();
  if (due.length) {
    const limit = pLimit(PARALLEL);
    const startBy = Date.now() + BATCH_START_WINDOW_MS;
    const archive = imp.files_dir ? archiveEntries(imp.files_dir) : null;
    let waitSeconds = 0;
    const outcomes: ItemOutcome[] = await Promise.all(
      due.map((item) =>
        limit(async () => {
          // The image budget is spent: the rest of the batch waits with it.
          if (waitSeconds > 0) return { kind: 'wait', seconds: waitSeconds } as const;
          // Out of time: the rest goes in the next batch (still pending, nothing to record).
          if (Date.now() > startBy) return { kind: 'later' } as const;
          const outcome = await importItem(deps, imp, item, ctx, archive);
          if (outcome.kind === 'wait') waitSeconds = Math.max(waitSeconds, outcome.seconds);
          return outcome;
        }),
      ),
    ).finally(() => archive?.close());
    await recount(db, imp.id);
    await reportProgress(db, ctx.events, imp.id);
    const wait = Math.max(0, ...outcomes.map((outcome) => (outcome.kind === 'wait' ? outcome.seconds : 0)));
    await again(wait);
    return;
  }
  const later = await db
    .selectFrom('import_items')
    .select((eb) => eb.fn.min('not_before').as('at'))
    .where('import_id', '=', imp.id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (later?.at) {
    await again((new Date(later.at).getTime() - Date.now()) / 1000);
    return;
  }
  await finishImport(deps, imp, ctx);
}

async function finishImport(deps: ImportJobDeps, imp: { id: number; user_id: number; kind: DB['imports']['kind']; files_dir: string | null; extra: unknown }, ctx: JobContext): Promise<void> {
  const { db } = ctx;
  await applyPlacements({ db, events: ctx.events, jobs: ctx.jobs, fetching: serviceFetching(deps.fetching) }, imp);
  await recount(db, imp.id);
  const row = await db.selectFrom('imports').select(['done', 'failed']).where('id', '=', imp.id).executeTakeFirstOrThrow();
  // Nothing of it could be imported: the import failed (its failures say why).
  const status = row.done === 0 && row.failed > 0 ? 'failed' : 'done';
  // Stopped meanwhile: the stop has put it in its place.
  const finished = await db.updateTable('imports').set({ status, finished_at: new Date() }).where('id', '=', imp.id).where('status', '=', 'running').executeTakeFirst();
  if (finished.numUpdatedRows === 0n) return;
  // Its archive goes with it: the allowance is for imports that wait or run (a failed item of a ZIP
  // is tried again by importing the ZIP again, which makes nothing twice).
  await dropArchive(db, imp.id, imp.files_dir);
  await reportProgress(db, ctx.events, imp.id, { final: true });
  ctx.logger.info({ importId: imp.id, status, done: row.done, failed: row.failed }, 'import finished');
  await startNextImport(ctx.jobs, db, imp.user_id);
}
