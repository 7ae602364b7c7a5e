import { buffer } from 'node:stream/consumers';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../db/schema.ts';
import { CONTENT_TYPES, mediaKey } from './media-urls.ts';
import { cleanStoredOriginal } from './process.ts';
import type { MediaStorage } from './storage.ts';

// Originals stored before metadata was removed (images.metadata_stripped = false) still carry their
// EXIF, XMP, IPTC and comments. The images.strip-metadata job rewrites each in place, under the
// same key: its URL (in pins, in pages and caches that viewers hold, in the change log) keeps
// working and now serves the file without its metadata. Such a key stays the hash of the bytes
// first received (source_sha256 says so), not of the file now stored; new images are keyed by what
// is stored. Browsers and proxies that cached the old file (immutable, a year) keep their copy:
// nothing on the server can reach them. Walked in key order with a cursor in the job's data, a
// batch per job: resumable (a crash redoes at most one batch), idempotent (a rewritten row is
// skipped; rewriting one again would write the same bytes), and a file that cannot be cleaned is
// logged and left for the next run (every instance sends the job at start).

const BATCH = 20;

export interface StripResult {
  /** The key to continue after, when there may be more. */
  next: string | undefined;
  rewritten: number;
  alreadyClean: number;
  failed: number;
}

export async function stripStoredMetadata(deps: { db: Kysely<DB>; storage: MediaStorage; logger: Logger }, after: string | undefined): Promise<StripResult> {
  let query = deps.db.selectFrom('images').select(['sha256', 'format']).where('metadata_stripped', '=', false).orderBy('sha256').limit(BATCH);
  if (after !== undefined) query = query.where('sha256', '>', after);
  const rows = await query.execute();
  const result: StripResult = { next: rows.length === BATCH ? rows.at(-1)?.sha256 : undefined, rewritten: 0, alreadyClean: 0, failed: 0 };
  for (const row of rows) {
    const key = mediaKey(row.sha256, { original: row.format });
    try {
      const file = await deps.storage.get(key);
      const original = file ? await buffer(file.body) : undefined;
      const cleaned = original ? await cleanStoredOriginal(original, row.format) : undefined;
      const changed = original !== undefined && cleaned !== undefined && !cleaned.equals(original);
      await deps.db.transaction().execute(async (trx) => {
        // Locked against the sweep deleting it meanwhile (a pin saved with it only takes a key-share lock).
        const locked = await trx.selectFrom('images').select('metadata_stripped').where('sha256', '=', row.sha256).forNoKeyUpdate().executeTakeFirst();
        if (!locked || locked.metadata_stripped) return;
        if (changed) await deps.storage.put(key, cleaned, CONTENT_TYPES[row.format]);
        await trx
          .updateTable('images')
          .set({ metadata_stripped: true, bytes: cleaned?.length ?? sql<number>`bytes`, source_sha256: sql<string>`coalesce(source_sha256, sha256)` })
          .where('sha256', '=', row.sha256)
          .execute();
      });
      if (changed) result.rewritten += 1;
      else result.alreadyClean += 1;
    } catch (error) {
      result.failed += 1;
      deps.logger.warn({ err: error, sha256: row.sha256 }, 'stored original not cleaned of its metadata: left for the next run');
    }
  }
  return result;
}
