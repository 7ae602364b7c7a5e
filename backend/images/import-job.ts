import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { DEMO_IMAGES_DIR } from '../../db/demo-catalog.ts';
import type { DB } from '../../db/schema.ts';
import type { Config } from '../config.ts';
import { inTransaction, PUBLIC, recordChange } from '../changes/change-log.ts';
import { HttpError } from '../errors.ts';
import type { AppJobs } from '../jobs/catalog.ts';
import type { JobContext, JobSender } from '../jobs/define.ts';
import { getPin } from '../pins/pins.service.ts';
import { storeImage } from './images.service.ts';
import { SafeFetchError, safeFetch } from './safe-fetch.ts';
import type { MediaStorage } from './storage.ts';

export interface ImportImageData {
  pinId: number;
  url: string;
}

export interface ImportDeps {
  storage: MediaStorage;
  imports: Config['imports'];
}

/** Queues the import of each pin's image (the demo seed's pictures come in this way too). */
export async function queueImports(jobs: JobSender<AppJobs>, db: Kysely<DB>, pins: ReadonlyArray<{ id: number; imageUrl: string }>): Promise<void> {
  for (const pin of pins) await jobs.send(db, 'image.import', { pinId: pin.id, url: pin.imageUrl });
}

/** A pin's image address that names a file of the demo set (served at /seed-images/). */
const DEMO_IMAGE = /^\/seed-images\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/;

/**
 * Brings a pin's image in: fetches it (SSRF-guarded), stores it through the one pipeline uploads
 * use, then points the pin at it and announces `pin.updated`, so open grids swap to the stored
 * thumbnail live. Idempotent (delivery is at-least-once): a pin that is gone, already has an image,
 * or whose image address changed meanwhile is left alone. A refusal that another try cannot change
 * (a blocked address, a host that does not exist, not an image, too large, a 4xx) ends the job with
 * the pin as it was, logged; a passing failure (network, timeout, 5xx, 429) throws, so the queue
 * retries with backoff.
 */
export async function importImage(deps: ImportDeps, data: ImportImageData, ctx: JobContext): Promise<void> {
  const pin = await ctx.db.selectFrom('pins').select(['image_url', 'image_sha256']).where('id', '=', data.pinId).executeTakeFirst();
  if (!pin || pin.image_sha256 !== null || pin.image_url !== data.url) return;
  let bytes: Buffer;
  try {
    bytes = await load(deps, data.url);
  } catch (error) {
    if (error instanceof SafeFetchError && !isPassing(error)) {
      ctx.logger.warn({ pinId: data.pinId, url: data.url, reason: error.reason, status: error.status }, 'image import refused');
      return;
    }
    // A /seed-images/ address that names no file of the demo set will not name one on a retry.
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      ctx.logger.warn({ pinId: data.pinId, url: data.url }, 'image import refused: no such demo file');
      return;
    }
    throw error;
  }
  let stored: Awaited<ReturnType<typeof storeImage>>;
  try {
    stored = await storeImage({ db: ctx.db, storage: deps.storage }, bytes);
  } catch (error) {
    // A refusal of the bytes themselves (ImageRefusedError, 4xx) is final; a busy processor (503) is not.
    if (error instanceof HttpError && error.status < 500) {
      ctx.logger.warn({ pinId: data.pinId, url: data.url, refusal: error.message }, 'image import refused');
      return;
    }
    throw error;
  }
  const changed = await inTransaction(ctx.db, async (db) => {
    const updated = await db
      .updateTable('pins')
      .set({ image_sha256: stored.sha256, image_url: stored.image.url, updated_at: new Date() })
      .where('id', '=', data.pinId)
      .where('image_url', '=', data.url)
      .where('image_sha256', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!updated) return undefined;
    const pin = await getPin(db, data.pinId);
    return { pin, seq: await recordChange(db, 'pin:updated', { pin }, PUBLIC) };
  });
  if (changed) ctx.events.publish('pin.updated', changed);
}

function isPassing(error: SafeFetchError): boolean {
  if (error.reason === 'timeout' || error.reason === 'network') return true;
  return error.reason === 'http_status' && error.status !== undefined && (error.status >= 500 || error.status === 429 || error.status === 408);
}

async function load(deps: ImportDeps, url: string): Promise<Buffer> {
  const demo = DEMO_IMAGE.exec(url);
  if (demo) return readFile(path.join(DEMO_IMAGES_DIR, demo[1] as string));
  const fetched = await safeFetch(url, { maxBytes: IMAGE_LIMITS.maxBytes, allow: { cidrs: deps.imports.allowCidrs, ports: deps.imports.allowPorts } });
  return fetched.bytes;
}
