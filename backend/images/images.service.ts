import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { IMAGE_LIMITS, type StoredImage, THUMBNAIL_WIDTHS } from '../../contract/images.ts';
import type { DB, ImageFormat } from '../../db/schema.ts';
import { ImageRefusedError } from '../errors.ts';
import type { AppJobs } from '../job-catalog.ts';
import type { JobSender } from '../jobs/define.ts';
import { CONTENT_TYPES, type ImageFields, mediaKey, mediaUrl, toPinImage } from './media-urls.ts';
import { processImage } from './process.ts';
import { seenColumns } from './seen/see.ts';
import type { MediaStorage } from './storage.ts';

// The one pipeline every way in uses (docs/images.md): an upload, a fetch by URL, the demo seed.

export interface StoreDeps {
  db: Kysely<DB>;
  storage: MediaStorage;
  /** Queues the reading of a new image's text (images.read-text) with its row. */
  jobs: JobSender<AppJobs>;
}

export interface StoredImageResult {
  sha256: string;
  format: ImageFormat;
  image: StoredImage;
}

/** What to store: bytes in memory (a fetch by URL), or an upload's temporary file with what was learnt receiving it. */
export type ImageSource = { bytes: Buffer } | { path: string; size: number; sha256: string };

/** The one group of images.read-text jobs: one reading at a time across the instances (on top of one per process). */
export const READ_TEXT_GROUP = 'read-text';

const FIELDS = ['sha256', 'format', 'width', 'height', 'placeholder', 'colors', 'palette', 'text'] as const;

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Stores an image and answers it with its derived data. Content-addressed: the key is the sha256 of
 * the file as stored (its metadata removed, process.ts), so the same picture stored twice is one
 * row and one set of files; the same bytes sent again are answered from their row at once (by the
 * hash of what was received) without being processed again.
 *
 * The files are written first and the row last, so a row always means its files exist. A refusal
 * (ImageRefusedError: empty, over 20 MB, not an image, damaged, too many pixels, too long or
 * narrow, too slow) happens before any write: it leaves no row and no file. A failure part-way
 * (storage or database down) may leave files without a row; they are never deleted here, as
 * another call storing the same picture at the same moment may have just written its row over the
 * same keys, and a retry rewrites them anyway. Images no pin uses are deleted after a grace period
 * (sweep.ts).
 *
 * What is seen in the picture (hashes, palette, colour names) is found while processing it and
 * written with its row; its text takes longer and is read afterwards by a job (images.read-text),
 * so it never holds up the answer: a new row's text is null until then.
 */
export async function storeImage(deps: StoreDeps, source: ImageSource): Promise<StoredImageResult> {
  const size = 'bytes' in source ? source.bytes.length : source.size;
  if (size === 0) throw new ImageRefusedError('empty');
  if (size > IMAGE_LIMITS.maxBytes) throw new ImageRefusedError('too-large');
  const received = 'bytes' in source ? sha256Of(source.bytes) : source.sha256;

  const existing = await touchImage(deps.db, received);
  if (existing) return resultOf(existing);

  const processed = await processImage('bytes' in source ? source.bytes : source.path);
  const sha256 = sha256Of(processed.original);
  await Promise.all([
    deps.storage.put(mediaKey(sha256, { original: processed.format }), processed.original, CONTENT_TYPES[processed.format]),
    ...THUMBNAIL_WIDTHS.map((width) => deps.storage.put(mediaKey(sha256, { width }), processed.thumbnails[width], CONTENT_TYPES.webp)),
  ]);
  const fields = { sha256, format: processed.format, width: processed.width, height: processed.height, placeholder: processed.placeholder };
  const inserted = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('images')
      .values({ ...fields, ...seenColumns(processed.seen), bytes: processed.original.length, source_sha256: received, metadata_stripped: true })
      .onConflict((conflict) => conflict.column('sha256').doNothing())
      .returning(FIELDS)
      .executeTakeFirst();
    // Only a new row: one stored meanwhile by another call had its own reading queued.
    if (row) await deps.jobs.send(trx, 'images.read-text', { sha256 }, { group: READ_TEXT_GROUP });
    return row;
  });
  // Stored meanwhile (the same picture from another call, or with other metadata): its row is the
  // one every reader sees, so answer that one.
  return resultOf(inserted ?? (await touchImage(deps.db, sha256, 'stored')) ?? fields);
}

/**
 * An image already stored, found by the hash of the bytes it was received as (`received`: rows
 * stored before metadata was removed have no source hash, and their key is that hash) or by its
 * key (`stored`), marked as just stored again if no pin uses it: its grace before the sweep
 * (sweep.ts) starts over, so the pin about to be made of it finds it. Undefined when there is
 * none, or when the sweep has just deleted it (this waits for the sweep's row lock).
 */
async function touchImage(db: Kysely<DB>, sha256: string, by: 'received' | 'stored' = 'received'): Promise<ImageFields | undefined> {
  const row = await db
    .updateTable('images')
    .set({ unreferenced_since: sql<Date | null>`case when unreferenced_since is null then null else now() end` })
    .where((eb) =>
      by === 'stored'
        ? eb('sha256', '=', sha256)
        : eb('sha256', 'in', eb.selectFrom('images').select('sha256').where('source_sha256', '=', sha256).limit(1)).or(eb.and([eb('sha256', '=', sha256), eb('source_sha256', 'is', null)])),
    )
    .returning(FIELDS)
    .executeTakeFirst();
  return row;
}

function resultOf(row: ImageFields): StoredImageResult {
  return {
    sha256: row.sha256,
    format: row.format,
    image: { url: mediaUrl(mediaKey(row.sha256, { original: row.format })), ...toPinImage(row) },
  };
}
