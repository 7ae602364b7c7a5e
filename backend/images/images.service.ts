import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { IMAGE_LIMITS, type StoredImage, THUMBNAIL_WIDTHS } from '../../contract/images.ts';
import type { DB, ImageFormat } from '../../db/schema.ts';
import { ImageRefusedError } from '../errors.ts';
import { detectImageFormat } from './detect.ts';
import { CONTENT_TYPES, type ImageFields, mediaKey, mediaUrl, toPinImage } from './media-urls.ts';
import { processImage } from './process.ts';
import type { MediaStorage } from './storage.ts';

// The one pipeline every way in uses (DESIGN §10): an upload, an import by URL, the demo seed.

export interface StoredImageResult {
  sha256: string;
  format: ImageFormat;
  image: StoredImage;
}

/**
 * Stores an image and answers it with its derived data. Content-addressed: the key is the sha256 of
 * the bytes, so the same file stored twice is one row and one set of files, and a file already
 * stored is answered from its row without being read again.
 *
 * The files are written first and the row last, so a row always means its files exist. A refusal
 * (ImageRefusedError: empty, over 20 MB, not an image, damaged, too many pixels) happens before any
 * write: it leaves no row and no file. A failure part-way (storage or database down) may leave
 * files without a row; they are never deleted here, as another call storing the same bytes at the
 * same moment may have just written its row over the same keys, and a retry rewrites them anyway.
 * Images no pin uses are deleted after a grace period (sweep.ts).
 */
export async function storeImage(deps: { db: Kysely<DB>; storage: MediaStorage }, bytes: Buffer): Promise<StoredImageResult> {
  if (bytes.length === 0) throw new ImageRefusedError('empty');
  if (bytes.length > IMAGE_LIMITS.maxBytes) throw new ImageRefusedError('too-large');
  const format = await detectImageFormat(bytes);
  if (!format) throw new ImageRefusedError('not-an-image');
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  const existing = await touchImage(deps.db, sha256);
  if (existing) return resultOf(existing);

  const processed = await processImage(bytes, format);
  await Promise.all([
    deps.storage.put(mediaKey(sha256, { original: format }), bytes, CONTENT_TYPES[format]),
    ...THUMBNAIL_WIDTHS.map((width) => deps.storage.put(mediaKey(sha256, { width }), processed.thumbnails[width], CONTENT_TYPES.webp)),
  ]);
  const fields: ImageFields = { sha256, format, width: processed.width, height: processed.height, placeholder: processed.placeholder };
  const inserted = await deps.db
    .insertInto('images')
    .values({ ...fields, bytes: bytes.length })
    .onConflict((conflict) => conflict.column('sha256').doNothing())
    .returning(['sha256', 'format', 'width', 'height', 'placeholder'])
    .executeTakeFirst();
  // Stored meanwhile by another call: its row is the one every reader sees, so answer that.
  return resultOf(inserted ?? (await findImage(deps.db, sha256)) ?? fields);
}

/**
 * An image already stored, marked as just stored again if no pin uses it: its grace before the
 * sweep (sweep.ts) starts over, so the pin about to be made of it finds it. Undefined when there is
 * none, or when the sweep has just deleted it (this waits for the sweep's row lock).
 */
function touchImage(db: Kysely<DB>, sha256: string): Promise<ImageFields | undefined> {
  return db
    .updateTable('images')
    .set({ unreferenced_since: sql<Date | null>`case when unreferenced_since is null then null else now() end` })
    .where('sha256', '=', sha256)
    .returning(['sha256', 'format', 'width', 'height', 'placeholder'])
    .executeTakeFirst();
}

function findImage(db: Kysely<DB>, sha256: string): Promise<ImageFields | undefined> {
  return db.selectFrom('images').select(['sha256', 'format', 'width', 'height', 'placeholder']).where('sha256', '=', sha256).executeTakeFirst();
}

function resultOf(row: ImageFields): StoredImageResult {
  return {
    sha256: row.sha256,
    format: row.format,
    image: { url: mediaUrl(mediaKey(row.sha256, { original: row.format })), ...toPinImage(row) },
  };
}
