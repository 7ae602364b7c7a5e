import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { DEMO_IMAGES_DIR } from '../../db/demo-catalog.ts';
import type { DB } from '../../db/schema.ts';
import type { ImageConfig } from '../config-images.ts';
import { supersedeChanges } from '../changes/supersede.ts';
import { write } from '../changes/write.ts';
import type { FetchFailure } from '../../contract/image-repair.ts';
import { HttpError, ImageRefusedError } from '../errors.ts';
import type { AppJobs } from '../job-catalog.ts';
import type { JobContext, JobSender } from '../jobs/define.ts';
import { getPin } from './pins.service.ts';
import { holdUntilPictured, publishPictured } from './pictureless.ts';
import { pinAudience } from '../visibility/pin-access.ts';
import { type HostCooldown, hostOf } from '../images/host-cooldown.ts';
import type { ImageBudget } from '../images/image-budget.ts';
import { storeImage } from '../images/images.service.ts';
import { fetchGroup, REFUSED_ADDRESS } from '../images/fetch-policy.ts';
import { SafeFetchError, safeFetch } from '../images/safe-fetch.ts';
import type { MediaStorage } from '../images/storage.ts';

// Fetching a pin's picture by URL (docs/images.md). Fair to everybody: each user's fetches form a
// group of which at most FETCH_CONCURRENCY_PER_USER run at once (the queue's group concurrency), a
// user has at most FETCH_PENDING_PER_USER waiting (pins.service.ts), every fetch takes one image
// from its user's budget, a host that timed out is left alone for a while, and a retry is a new job
// sent with a lower priority, so it waits behind every fresh fetch instead of ahead of them.

export interface FetchImageData {
  pinId: number;
  url: string;
  /** The pin's owner, whose budget and group the fetch counts in (absent: the demo seed). */
  userId?: number | undefined;
  /** 0 for the first try; each retry after a passing failure is one more. */
  attempt?: number | undefined;
}

export interface FetchDeps {
  storage: MediaStorage;
  fetching: ImageConfig['fetching'];
  budget: ImageBudget;
  cooldown: HostCooldown;
}

/** Tries per fetch (the first and four retries), as before retries became jobs of their own. */
export const FETCH_ATTEMPTS = 5;
/** The first retry waits this long, each next one twice as long. */
const RETRY_BASE_SECONDS = 10;

/** Queues the fetch of each pin's image (the demo seed's pictures come in this way too). */
export async function queueFetches(jobs: JobSender<AppJobs>, db: Kysely<DB>, pins: ReadonlyArray<{ id: number; imageUrl: string }>): Promise<void> {
  for (const pin of pins) await jobs.send(db, 'image.fetch', { pinId: pin.id, url: pin.imageUrl }, { group: fetchGroup(undefined) });
}

/** A pin's image address that names a file of the demo set (served at /seed-images/). */
const DEMO_IMAGE = /^\/seed-images\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/;

/**
 * Brings a pin's image in: fetches it (SSRF-guarded), stores it through the one pipeline uploads
 * use, then points the pin at it and announces `pin.updated`, so open grids swap to the stored
 * thumbnail live. Idempotent (delivery is at-least-once): a pin that is gone, already has an image,
 * or whose image address changed meanwhile is left alone. A refusal that another try cannot change
 * (a host that does not exist, not an image, too large, a 4xx) ends the fetch with the pin as it
 * was, logged; an address the guard refuses also empties the pin's `image_url`. A passing failure
 * (network, timeout, 5xx, 429) is tried again later, up to FETCH_ATTEMPTS in all.
 */
export async function fetchImage(deps: FetchDeps, data: FetchImageData, ctx: JobContext): Promise<void> {
  const pin = await ctx.db.selectFrom('pins').select(['image_url', 'image_sha256']).where('id', '=', data.pinId).executeTakeFirst();
  if (!pin || pin.image_sha256 !== null || pin.image_url !== data.url) return;
  const attempt = data.attempt ?? 0;
  const host = DEMO_IMAGE.test(data.url) ? undefined : hostOf(data.url);
  const waitMs = host ? deps.cooldown.remainingMs(host) : 0;
  if (waitMs > 0) return later(ctx, data, attempt, waitMs / 1000);
  if (attempt === 0 && data.userId !== undefined) {
    const budget = await deps.budget.take(data.userId);
    if (!budget.ok) return later(ctx, data, attempt, budget.retryAfterSeconds);
  }
  let bytes: Buffer;
  try {
    bytes = await load(deps, data.url, ctx.signal);
  } catch (error) {
    if (error instanceof SafeFetchError && isPassing(error)) {
      if (error.reason === 'timeout' && host) deps.cooldown.timedOut(host);
      if (attempt + 1 >= FETCH_ATTEMPTS) {
        ctx.logger.warn({ pinId: data.pinId, url: data.url, reason: error.reason, attempts: attempt + 1 }, 'picture fetch given up');
        return giveUp(ctx, data, failureOf(error));
      }
      const backoff = RETRY_BASE_SECONDS * 2 ** attempt;
      return later(ctx, data, attempt + 1, Math.max(backoff, host ? deps.cooldown.remainingMs(host) / 1000 : 0));
    }
    if (error instanceof SafeFetchError) {
      ctx.logger.warn({ pinId: data.pinId, url: data.url, reason: error.reason, status: error.status }, 'picture fetch refused');
      return REFUSED_ADDRESS.has(error.reason) ? hideRefusedAddress(ctx, data, failureOf(error)) : giveUp(ctx, data, failureOf(error));
    }
    // A /seed-images/ address that names no file of the demo set will not name one on a retry.
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      ctx.logger.warn({ pinId: data.pinId, url: data.url }, 'picture fetch refused: no such demo file');
      return giveUp(ctx, data, 'no_such_file');
    }
    throw error;
  }
  let stored: Awaited<ReturnType<typeof storeImage>>;
  try {
    stored = await storeImage({ db: ctx.db, storage: deps.storage, jobs: ctx.jobs }, { bytes });
  } catch (error) {
    // A refusal of the bytes themselves (ImageRefusedError, 4xx) is final.
    if (error instanceof HttpError && error.status < 500) {
      ctx.logger.warn({ pinId: data.pinId, url: data.url, refusal: error.message }, 'picture fetch refused');
      return giveUp(ctx, data, error instanceof ImageRefusedError ? error.reason : 'not-an-image');
    }
    // A busy processor (503): the same try, a little later.
    if (error instanceof HttpError) return later(ctx, data, attempt, RETRY_BASE_SECONDS);
    throw error;
  }
  await write(ctx, async (db, record) => {
    const updated = await updateWaitingPin(db, data).set({ image_sha256: stored.sha256, image_url: stored.image.url, image_failure: null, updated_at: new Date() }).returning('id').executeTakeFirst();
    if (!updated) return;
    // One its owner made public waited for this picture to be shown (pictureless.ts).
    if (await publishPictured(db, record, data.pinId)) return;
    record('pin:updated', { pin: await getPin(db, data.pinId) }, await pinAudience(db, data.pinId, 'feed'));
  });
}

/** The fetch again, `seconds` from now, behind the fresh fetches of the queue (a lower priority for each retry). */
async function later(ctx: JobContext, data: FetchImageData, attempt: number, seconds: number): Promise<void> {
  await ctx.jobs.send(ctx.db, 'image.fetch', { ...data, attempt }, { startAfterSeconds: Math.max(1, Math.ceil(seconds)), priority: -attempt, group: fetchGroup(data.userId) });
}

/** The reason code kept on the pin for its owner (contract/image-repair.ts). */
function failureOf(error: SafeFetchError): FetchFailure {
  return error.reason === 'http_status' && error.status !== undefined ? `http_status:${error.status}` : error.reason;
}

/**
 * Keeps why the fetch gave up on the pin, for its owner (GET /api/pins/{id}/image-status,
 * docs/image-repair.md), unless the pin has moved on meanwhile (another address, or an image). No
 * change anyone is sent: the pin as everyone sees it is the same.
 */
async function giveUp(ctx: JobContext, data: FetchImageData, reason: FetchFailure): Promise<void> {
  await updateWaitingPin(ctx.db, data).set({ image_failure: reason }).execute();
}

/**
 * The guard refused the address (a private network, a port or scheme it does not fetch): nobody's
 * browser is sent there either. The pin keeps it only in `refused_image_url`, for its owner, with why.
 */
async function hideRefusedAddress(ctx: JobContext, data: FetchImageData, reason: FetchFailure): Promise<void> {
  await write(ctx, async (db, record) => {
    const updated = await updateWaitingPin(db, data).set({ image_url: '', refused_image_url: data.url, image_failure: reason, updated_at: new Date() }).returning('id').executeTakeFirst();
    if (!updated) return;
    // Its creation went out with the address: the change log stops serving it too.
    await supersedeChanges(db, { pinImageRefused: data.pinId });
    if (await holdUntilPictured(db, record, data.pinId)) return;
    record('pin:updated', { pin: await getPin(db, data.pinId) }, await pinAudience(db, data.pinId, 'feed'));
  });
}

/** An update of the pin only while it still waits for this address's image (no other address, no image yet). */
function updateWaitingPin(db: Kysely<DB>, data: FetchImageData) {
  return db.updateTable('pins').where('id', '=', data.pinId).where('image_url', '=', data.url).where('image_sha256', 'is', null);
}

function isPassing(error: SafeFetchError): boolean {
  if (error.reason === 'timeout' || error.reason === 'network') return true;
  return error.reason === 'http_status' && error.status !== undefined && (error.status >= 500 || error.status === 429 || error.status === 408);
}

async function load(deps: FetchDeps, url: string, signal: AbortSignal): Promise<Buffer> {
  const demo = DEMO_IMAGE.exec(url);
  if (demo) return readFile(path.join(DEMO_IMAGES_DIR, demo[1] as string));
  const { allowCidrs: cidrs, allowPorts: ports, headersTimeoutMs } = deps.fetching;
  const fetched = await safeFetch(url, { maxBytes: IMAGE_LIMITS.maxBytes, headersTimeoutMs, signal, allow: { cidrs, ports } });
  return fetched.bytes;
}
