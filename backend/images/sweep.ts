import { type Kysely, sql } from 'kysely';
import { THUMBNAIL_WIDTHS } from '../../contract/images.ts';
import type { DB, ImageFormat } from '../../db/schema.ts';
import { mediaKey } from './media-urls.ts';
import type { MediaStorage } from './storage.ts';

/** Images looked at per transaction: their rows stay locked while their files are deleted. */
const BATCH = 100;

/**
 * Deletes the stored images that no pin has used for `graceHours` (an upload nobody made a pin of,
 * the image of a deleted pin), rows and files; answers how many. A trigger on pins marks an image
 * when its last pin goes (db/migrations/…_0009_image_references.ts); the mark is only a hint, so
 * each candidate is checked again here under its row lock:
 * - a pin being saved with the image holds a key-share lock on its row: the row is skipped;
 * - a pin saved after the lock waits for this commit, then finds no image (as after any deletion);
 * - the same bytes uploaded again meanwhile wait for the lock (images.service.ts touches the row),
 *   find the row gone and store the files anew, after these deletions: never a row without files.
 * Instances may run it at once: SKIP LOCKED shares the candidates out.
 */
export async function sweepImages(deps: { db: Kysely<DB>; storage: MediaStorage }, graceHours: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await sweepBatch(deps, graceHours);
    deleted += batch.deleted;
    if (batch.examined < BATCH) return deleted;
  }
}

async function sweepBatch(deps: { db: Kysely<DB>; storage: MediaStorage }, graceHours: number): Promise<{ examined: number; deleted: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const candidates = await trx
      .selectFrom('images')
      .select((eb) => ['images.sha256', 'images.format', eb.exists(eb.selectFrom('pins').select('pins.id').whereRef('pins.image_sha256', '=', 'images.sha256')).as('used')])
      .where('images.unreferenced_since', '<', sql<Date>`now() - make_interval(hours => ${graceHours})`)
      .orderBy('images.unreferenced_since')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    // Marked, but a pin uses it again (the mark raced with a new pin): no longer a candidate.
    const used = candidates.filter((image) => image.used).map((image) => image.sha256);
    if (used.length) await trx.updateTable('images').set({ unreferenced_since: null }).where('sha256', 'in', used).execute();
    const unused = candidates.filter((image) => !image.used);
    if (unused.length) {
      await trx
        .deleteFrom('images')
        .where(
          'sha256',
          'in',
          unused.map((image) => image.sha256),
        )
        .execute();
      // Before the commit, while the rows are locked (see above).
      for (const image of unused) await Promise.all(filesOf(image).map((key) => deps.storage.delete(key)));
    }
    return { examined: candidates.length, deleted: unused.length };
  });
}

function filesOf(image: { sha256: string; format: ImageFormat }): string[] {
  return [mediaKey(image.sha256, { original: image.format }), ...THUMBNAIL_WIDTHS.map((width) => mediaKey(image.sha256, { width }))];
}
