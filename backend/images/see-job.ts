import { buffer } from 'node:stream/consumers';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../db/schema.ts';
import { mediaKey } from './media-urls.ts';
import { imageProcessingQueued, seeStoredThumbnail } from './process.ts';
import type { MediaStorage } from './storage.ts';
import { readStoredText } from './read-text-job.ts';
import { seenColumns } from './seen/see.ts';

// The backfill (docs/images.md "What is seen in a picture"): images stored before they were looked
// at (seen_at null: hashes, palette, colour names) or whose text was never read (text_read_at null:
// stored before, or its images.read-text job was lost), found through their partial indexes and
// walked in key order with a cursor in the job's data, a batch per job: resumable (a restart redoes
// at most one batch), idempotent (a row seen meanwhile is skipped). It yields to uploads: each
// picture takes a processing slot like an upload's (process.ts), and while uploads wait for one it
// steps aside first; a text reading shares the one reading worker of the process.

const BATCH = 20;
/** While uploads wait for a processing slot, the backfill waits this long before looking again. */
const YIELD_MS = 200;
/** At most this much yielding per picture: the backfill is slow under load, never stopped. */
const MAX_YIELD_MS = 10_000;
/** The thumbnail looked at. */
const SEEN_WIDTH = 736;

export interface SeeResult {
  /** The key to continue after, when there may be more. */
  next: string | undefined;
  seen: number;
  read: number;
  failed: number;
}

export async function seeStoredImages(deps: { db: Kysely<DB>; storage: MediaStorage; logger: Logger; signal: AbortSignal }, after: string | undefined): Promise<SeeResult> {
  // Either index answers a key range (images_unseen, images_text_unread); the union is small.
  const unseen = (column: 'seen_at' | 'text_read_at') => {
    let query = deps.db.selectFrom('images').select(['sha256', 'seen_at', 'text_read_at']).where(column, 'is', null).orderBy('sha256').limit(BATCH);
    if (after !== undefined) query = query.where('sha256', '>', after);
    return query.execute();
  };
  const lists = await Promise.all([unseen('seen_at'), unseen('text_read_at')]);
  // A full list may go on past its last key: the batch stops at the smallest such key, so that
  // every key up to it (in either list) is taken now and the next batch starts after it.
  const ends = lists.filter((list) => list.length === BATCH).map((list) => list.at(-1)?.sha256 ?? '');
  const until = ends.length ? ends.reduce((x, y) => (x < y ? x : y)) : undefined;
  const byKey = new Map(
    lists
      .flat()
      .filter((row) => until === undefined || row.sha256 <= until)
      .map((row) => [row.sha256, row]),
  );
  const batch = [...byKey.values()].sort((x, y) => (x.sha256 < y.sha256 ? -1 : 1));
  const result: SeeResult = { next: until, seen: 0, read: 0, failed: 0 };
  for (const row of batch) {
    if (deps.signal.aborted) throw new Error('stopped');
    try {
      if (!row.seen_at) {
        await yieldToUploads(deps.signal);
        const file = await deps.storage.get(mediaKey(row.sha256, { width: SEEN_WIDTH }));
        if (file) {
          const facts = await seeStoredThumbnail(await buffer(file.body));
          await deps.db.updateTable('images').set(seenColumns(facts)).where('sha256', '=', row.sha256).where('seen_at', 'is', null).execute();
          result.seen += 1;
        }
      }
      if (!row.text_read_at && (await readStoredText(deps, row.sha256))) result.read += 1;
    } catch (error) {
      result.failed += 1;
      deps.logger.warn({ err: error, sha256: row.sha256 }, 'stored picture not seen: left for the next run');
    }
  }
  return result;
}

/** Waits while uploads wait for a processing slot (bounded: see MAX_YIELD_MS). */
export async function yieldToUploads(signal: AbortSignal): Promise<void> {
  const started = Date.now();
  while (imageProcessingQueued() && Date.now() - started < MAX_YIELD_MS && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, YIELD_MS));
  }
}

/** How many images are left to see or read, counted up to `upTo` (for the progress line). */
export async function imagesLeftToSee(db: Kysely<DB>, after: string | undefined, upTo: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from images
      where (seen_at is null or text_read_at is null) and (${after ?? null}::text is null or sha256 > ${after ?? ''})
      limit ${upTo}
    ) as left_over`.execute(db);
  return rows[0]?.n ?? 0;
}
