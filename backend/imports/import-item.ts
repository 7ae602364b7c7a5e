import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { transaction } from '../transactions/transaction.ts';
import { type HostCooldown, hostOf } from '../images/host-cooldown.ts';
import { storeImage } from '../images/images.service.ts';
import type { MediaStorage } from '../images/storage.ts';
import type { ImageConfig } from '../config-images.ts';
import type { JobContext } from '../jobs/define.ts';
import { createPin } from '../pins/pins.service.ts';
import type { ArchiveEntries } from './files.ts';
import { ItemFailure, loadItemImage, storeFailure } from './item-image.ts';
import { ItemData } from './items.ts';

// One item of an import becomes one pin (docs/import-export.md): its image comes in through the one
// pipeline every image takes (the SSRF guard for an address, then storeImage: processing limits,
// content-addressed storage, so a picture already stored is not stored twice), then the pin is
// made with it, in one transaction with the item's state and the record of the pin it made.

export interface ImportItemDeps {
  storage: MediaStorage;
  /** The fetch settings: what the SSRF guard lets through besides the public internet, the remote headers deadline. */
  fetching: ImageConfig['fetching'];
  /** One image from the user's budget, or how long to wait for one. */
  takeImage(userId: number): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
  /** Hosts that just timed out, shared with the fetches of pins' pictures: their items wait without a worker. */
  cooldown: HostCooldown;
}

export type ItemOutcome = { kind: 'done' } | { kind: 'failed' } | { kind: 'later' } | { kind: 'wait'; seconds: number };

/** Tries of an item whose failures pass (a server down), and the wait before the second. */
const ATTEMPTS = 3;
const RETRY_BASE_SECONDS = 15;

interface ImportRow {
  id: number;
  user_id: number;
}

/** Settles a pending item; answers false when it is pending no more (its import was stopped meanwhile). */
async function settle(
  db: Kysely<DB>,
  importId: number,
  position: number,
  set: { state: 'done' | 'failed' | 'pending'; reason?: string | null; pin_id?: number | null; attempts?: number; not_before?: Date | null },
): Promise<boolean> {
  const result = await db.updateTable('import_items').set(set).where('import_id', '=', importId).where('position', '=', position).where('state', '=', 'pending').executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The pin an earlier import made of the same item, if it still exists. */
async function importedBefore(db: Kysely<DB>, userId: number, key: string): Promise<number | undefined> {
  const row = await db.selectFrom('imported_pins').select('pin_id').where('user_id', '=', userId).where('item_key', '=', key).executeTakeFirst();
  return row?.pin_id;
}

export async function importItem(
  deps: ImportItemDeps,
  imp: ImportRow,
  item: { position: number; data: unknown; attempts: number },
  ctx: JobContext,
  archive: ArchiveEntries | null,
): Promise<ItemOutcome> {
  const { db } = ctx;
  const parsed = ItemData.safeParse(item.data);
  if (!parsed.success) {
    await settle(db, imp.id, item.position, { state: 'failed', reason: 'unreadable item' });
    return { kind: 'failed' };
  }
  const data = parsed.data;
  const fail = async (reason: string): Promise<ItemOutcome> => {
    await settle(db, imp.id, item.position, { state: 'failed', reason });
    return { kind: 'failed' };
  };
  // Imported already (this file, or another with the same item): that pin, not another.
  const earlier = await importedBefore(db, imp.user_id, data.key);
  if (earlier !== undefined) {
    await settle(db, imp.id, item.position, { state: 'done', pin_id: earlier });
    return { kind: 'done' };
  }
  if (!data.image) return fail('no image');
  let imageUrl: string;
  if ('address' in data.image) imageUrl = data.image.address;
  else {
    const picture = await storedPicture(deps, data.image, { imp, item, ctx, archive });
    if (typeof picture !== 'string') return picture;
    imageUrl = picture;
  }

  // The pin's change is announced once this transaction, which its write joins, has committed.
  const made = await transaction(db, async (trx) => {
    const service: ServiceContext = { db: trx, events: ctx.events, jobs: ctx.jobs, fetching: serviceFetching(deps.fetching) };
    const pin = await createPin(service, imp.user_id, {
      title: data.title,
      imageUrl,
      description: data.description,
      sourceUrl: data.sourceUrl,
      createdAt: data.createdAt ? new Date(data.createdAt) : undefined,
      // As the file says; else a pin going into a board is private, as one saved into a board is.
      visibility: data.visibility ?? (data.boards.length ? 'private' : 'public'),
    });
    // The pin's time as stored, to the microsecond (its JSON time is rounded to the millisecond).
    const recorded = await trx
      .insertInto('imported_pins')
      .values({ user_id: imp.user_id, item_key: data.key, pin_id: pin.id, import_id: imp.id, pin_updated_at: sql<Date>`(select updated_at from pins where id = ${pin.id})` })
      .onConflict((oc) => oc.columns(['user_id', 'item_key']).doNothing())
      .returning('pin_id')
      .executeTakeFirst();
    // The same item made into a pin meanwhile (the same file imported twice at once): that one stands.
    if (!recorded) throw new DuplicateItem();
    // Its import was stopped meanwhile: the pin is not made (an undo that follows the stop cannot miss it).
    if (!(await settle(trx, imp.id, item.position, { state: 'done', pin_id: pin.id }))) throw new ItemCalledOff();
    return pin.id;
  }).catch((error: unknown) => {
    if (error instanceof DuplicateItem) return undefined;
    if (error instanceof ItemCalledOff) return null;
    // The pin refused as a request would be (an address's import beyond the user's waiting ones).
    const refusal = storeFailure(error);
    if (refusal) return refusal;
    throw error;
  });
  if (made instanceof ItemFailure) return fail(made.message);
  if (made === null) return { kind: 'later' };
  if (made === undefined) {
    const pinId = await importedBefore(db, imp.user_id, data.key);
    await settle(db, imp.id, item.position, { state: 'done', pin_id: pinId ?? null });
  }
  return { kind: 'done' };
}

/**
 * The item's picture fetched (or inflated) and stored, as its stored address; or what became of
 * the item instead (failed, to be tried later, or waiting for the user's image budget).
 */
async function storedPicture(
  deps: ImportItemDeps,
  image: { url: string } | { page: string } | { file: string },
  { imp, item, ctx, archive }: { imp: ImportRow; item: { position: number; attempts: number }; ctx: JobContext; archive: ArchiveEntries | null },
): Promise<string | ItemOutcome> {
  const { db } = ctx;
  // A host that just timed out: the item waits for it without holding a worker (nor an attempt).
  const host = 'url' in image ? hostOf(image.url) : 'page' in image ? hostOf(image.page) : undefined;
  const coolingMs = host ? deps.cooldown.remainingMs(host) : 0;
  if (coolingMs > 0) {
    await settle(db, imp.id, item.position, { state: 'pending', not_before: new Date(Date.now() + coolingMs) });
    return { kind: 'later' };
  }
  try {
    const budget = await deps.takeImage(imp.user_id);
    if (!budget.ok) return { kind: 'wait', seconds: budget.retryAfterSeconds };
    const bytes = await loadItemImage(image, { archive, fetching: deps.fetching, signal: ctx.signal });
    return (await storeImage({ db, storage: deps.storage, jobs: ctx.jobs }, { bytes })).image.url;
  } catch (error) {
    const failure = error instanceof ItemFailure ? error : storeFailure(error);
    if (!failure) throw error;
    if (failure.hostTimedOut && host) deps.cooldown.timedOut(host);
    if (failure.passing && item.attempts + 1 < ATTEMPTS) {
      const notBefore = new Date(Date.now() + RETRY_BASE_SECONDS * 1000 * 2 ** item.attempts);
      await settle(db, imp.id, item.position, { state: 'pending', attempts: item.attempts + 1, not_before: notBefore });
      return { kind: 'later' };
    }
    await settle(db, imp.id, item.position, { state: 'failed', reason: failure.message });
    return { kind: 'failed' };
  }
}

class DuplicateItem extends Error {}
class ItemCalledOff extends Error {}

/** The services' view of the fetch settings (the pin made here names a stored image: no fetch by URL follows). */
export function serviceFetching(fetching: ImageConfig['fetching']): ServiceContext['fetching'] {
  return { allow: { cidrs: fetching.allowCidrs, ports: fetching.allowPorts }, pendingPerUser: fetching.pendingPerUser };
}
