import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { type RecordChange, write, type WriteContext } from '../changes/write.ts';
import { pinAudience } from '../visibility/pin-access.ts';

// A pin's likes are its likes_count plus its pending pin_like_deltas (docs/data-model.md, "Hot
// counters are deltas", migration 20261129_0031): a favorite never waits for another's commit, and
// the `pin:likes` event of a change is recorded either in its own transaction (it could lock the
// pin's row: "settled") or, when that row was busy ("deferred"), by the pins.likes-settle job once
// it has committed.

/** What favorite_add / favorite_remove answer of the pin's likes. */
export interface LikesAfter {
  likes_count: number;
  likes_version: number;
  settled: boolean;
}

/**
 * Announces a favorite's change of the pin's likes: with its count when the change is settled, else
 * through the settle job, sent in the transaction so that it runs once the change has committed.
 */
export async function announceLikes(ctx: Pick<ServiceContext, 'jobs'>, db: Kysely<DB>, record: RecordChange, pinId: number, likes: LikesAfter): Promise<void> {
  if (likes.settled) record('pin:likes', { pinId, likesCount: likes.likes_count, version: likes.likes_version }, await pinAudience(db, pinId, 'room'));
  else await ctx.jobs.send(db, 'pins.likes-settle', { pinId });
}

/**
 * Waits for the pin's row (folding its committed deltas), takes the next version and records the
 * count: what a merge does in its transaction, and the settle job in its own. Undefined when the
 * pin is gone.
 */
export async function settleLikes(db: Kysely<DB>, record: RecordChange, pinId: number): Promise<{ likes_count: number; likes_version: number } | undefined> {
  const { rows } = await sql<{ likes_count: number | null; likes_version: number | null }>`select * from pin_likes_settle(${pinId})`.execute(db);
  const row = rows[0];
  if (row?.likes_count == null || row.likes_version == null) return undefined;
  record('pin:likes', { pinId, likesCount: row.likes_count, version: row.likes_version }, await pinAudience(db, pinId, 'room'));
  return { likes_count: row.likes_count, likes_version: row.likes_version };
}

/** The pins.likes-settle job: publishes the pin's exact count, after the deferred change committed. */
export async function settleLikesJob(ctx: WriteContext, pinId: number): Promise<void> {
  await write(ctx, async (db, record) => {
    await settleLikes(db, record, pinId);
  });
}

/**
 * The counters.fold job: folds what folds left behind (their rows were busy), up to `batch` keys of
 * each table; one batch a run (a key still busy would come back at once), the job recurs.
 */
export async function foldCounters(db: Kysely<DB>, batch = 1000): Promise<number> {
  const { rows } = await sql<{ n: number }>`select counters_fold(${batch}) as n`.execute(db);
  return rows[0]?.n ?? 0;
}
