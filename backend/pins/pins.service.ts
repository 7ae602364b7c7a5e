import type { Kysely } from 'kysely';
import { z } from 'zod';
import { LIMITS } from '../../contract/limits.ts';
import type { PinListParams } from '../../contract/paging.ts';
import { type ImageStatus, fetchFailureMessage } from '../../contract/image-repair.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { parseTags } from '../../contract/tags.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { MSG } from '../../contract/messages.ts';
import { fetchGroup, REFUSED_ADDRESS } from '../images/fetch-policy.ts';
import { imageOf, MEDIA_PATH, parseMediaKey, toPinImage } from '../images/media-urls.ts';
import { refusedUpFront } from '../images/safe-fetch.ts';
import { supersedeChanges } from '../changes/supersede.ts';
import { write } from '../changes/write.ts';
import { forbidden, HttpError, notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { permutation } from '../paging/shuffle.ts';
import { canSeePin, isPublic, pinAudience, visibleTo } from '../visibility/pin-access.ts';
import { addPinToBoard } from '../boards/boards.service.ts';
import type { PinVisibilityValue } from '../../contract/visibility.ts';
import { announceSwitch, pictureAfter, visibilityFor } from './pictureless.ts';
import { likesCountOfPins } from './likes-count.ts';

/**
 * Pins with owner and likes count (a column) in one query: no query per pin. The owner's name is a
 * primary-key lookup per row rather than a join: for a page of ids the planner otherwise hashes the
 * whole users table, and the page's cost grows with the number of users.
 */
export function selectPins(db: Kysely<DB>) {
  return db
    .selectFrom('pins')
    .select((eb) => [
      'pins.id',
      'pins.title',
      'pins.image_url',
      'pins.description',
      'pins.tags',
      'pins.user_id',
      'pins.created_at',
      'pins.updated_at',
      likesCountOfPins.as('likes_count'),
      'pins.source_url',
      'pins.visibility',
      'pins.waits_for_picture',
      'pins.alt_text',
      eb.selectFrom('users').select('users.username').whereRef('users.id', '=', 'pins.user_id').$asScalar().$notNull().as('username'),
      imageOf(eb).as('image'),
    ]);
}

export type PinRow = Awaited<ReturnType<ReturnType<typeof selectPins>['executeTakeFirstOrThrow']>>;

export function toPin(row: PinRow): Pin {
  return {
    id: row.id,
    title: row.title,
    image_url: row.image_url,
    image: row.image && toPinImage(row.image),
    description: row.description,
    tags: row.tags,
    user_id: row.user_id,
    user: { id: row.user_id, username: row.username },
    likes_count: row.likes_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    source_url: row.source_url,
    // Its owner's choice: one waiting for its picture is public once it has one (pictureless.ts).
    visibility: row.waits_for_picture ? 'public' : row.visibility,
    alt_text: row.alt_text,
  };
}

const shufflePosition = z.object({ n: z.number().int().positive(), pos: z.number().int().positive() });

/**
 * One page of GET /api/pins/: newest first (all pins, or one user's), or the visit's shuffle.
 * Cursors carry the list they belong to, so one from another order, seed or user is refused. The
 * lists hold public pins (the same for every reader, so they can be cached), but for a user's own
 * list read by that user (`readerId`), which holds their private pins too (docs/who-sees-what.md).
 */
export async function listPins(db: Kysely<DB>, cursors: CursorCodec, query: PinListParams, readerId?: number): Promise<PinList> {
  const limit = query.limit ?? LIMITS.pageDefault;
  if (query.order === 'shuffle') {
    const scope = `pins:shuffle:${query.seed ?? 0}`;
    const from = query.cursor ? cursors.decode(scope, query.cursor, shufflePosition) : undefined;
    const page = await shuffledPage(db, { seed: query.seed ?? 0, limit, ...from });
    return { pins: page.pins, nextCursor: page.next && cursors.encode(scope, page.next) };
  }
  const page = keyset(cursors, query.userId === undefined ? 'pins:newest' : `pins:user:${query.userId}`, query);
  let select = selectPins(db)
    .orderBy('pins.id', 'desc')
    .limit(page.limit + 1);
  if (query.userId !== undefined) select = select.where('pins.user_id', '=', query.userId);
  if (query.userId === undefined || query.userId !== readerId) select = select.where(isPublic);
  if (page.before !== undefined) select = select.where('pins.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.id);
  return { pins: items.map(toPin), nextCursor };
}

/** Batches of positions tried per request before a sparse stretch answers a short page. */
const SHUFFLE_ROUNDS = 4;

/**
 * A page of the permutation (fixed by `seed`) of the ids 1..n, where n is the largest id when page
 * one was served: pins created later are not in it (they reach the visitor live), and ids of
 * deleted pins are skipped. Ids are handed out in order, so 1..n is nearly dense; each round looks
 * up a batch of permuted ids by primary key, so a page costs O(page) at any table size.
 */
async function shuffledPage(db: Kysely<DB>, options: { seed: number; limit: number; n?: number; pos?: number }): Promise<{ pins: Pin[]; next: { n: number; pos: number } | null }> {
  const n =
    options.n ??
    (
      await db
        .selectFrom('pins')
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirst()
    )?.max ??
    0;
  if (n === 0) return { pins: [], next: null };
  const permute = permutation(n, options.seed);
  const pins: Pin[] = [];
  let pos = options.pos ?? 0;
  for (let round = 0; round < SHUFFLE_ROUNDS && pins.length < options.limit && pos < n; round++) {
    // Ask for more than is missing: some ids belong to deleted or private pins, which the feed
    // skips (a sparse stretch takes another round).
    const missing = options.limit - pins.length;
    const ids = Array.from({ length: Math.min(n - pos, Math.ceil(missing * 1.5) + 4) }, (_, i) => permute(pos + i) + 1);
    const rows = await selectPins(db).where('pins.id', 'in', ids).where(isPublic).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    let used = 0;
    for (const id of ids) {
      used += 1;
      const row = byId.get(id);
      if (row) pins.push(toPin(row));
      if (pins.length === options.limit) break;
    }
    pos += used;
  }
  return { pins, next: pos < n ? { n, pos } : null };
}

/** The user's own pins saved from one page (normalised), newest first: an index range. */
export async function pinsFromSource(db: Kysely<DB>, userId: number, sourceUrl: string, limit: number): Promise<Pin[]> {
  const rows = await selectPins(db).where('pins.user_id', '=', userId).where('pins.source_url', '=', sourceUrl).orderBy('pins.id', 'desc').limit(limit).execute();
  return rows.map(toPin);
}

async function findPin(db: Kysely<DB>, id: number): Promise<Pin | undefined> {
  const row = await selectPins(db).where('pins.id', '=', id).executeTakeFirst();
  return row && toPin(row);
}

/** A pin as its writer reads it back (no visibility check: the caller has decided who may). */
export async function getPin(db: Kysely<DB>, id: number): Promise<Pin> {
  const pin = await findPin(db, id);
  if (!pin) throw notFound('Pin');
  return pin;
}

/** A pin for `readerId` (undefined: anyone): 404, as for a pin that does not exist, unless they may see it. */
export async function getPinFor(db: Kysely<DB>, id: number, readerId: number | undefined): Promise<Pin> {
  const row = await selectPins(db).where('pins.id', '=', id).where(visibleTo(readerId)).executeTakeFirst();
  if (!row) throw notFound('Pin');
  return toPin(row);
}

/** Throws 404 for an unknown pin, 403 for someone else's. */
async function assertOwnPin(db: Kysely<DB>, userId: number, id: number): Promise<void> {
  const row = await db.selectFrom('pins').select('user_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Pin');
  if (row.user_id !== userId) throw forbidden();
}

/**
 * The stored image a same-site /media/ address names (an uploaded file: POST /api/images/ answered
 * it), so the pin has its image from the start. Undefined for any other address.
 */
async function storedImageOf(db: Kysely<DB>, imageUrl: string): Promise<string | undefined> {
  if (!imageUrl.startsWith(`${MEDIA_PATH}/`)) return undefined;
  const key = parseMediaKey(imageUrl.slice(MEDIA_PATH.length + 1));
  if (!key) return undefined;
  const row = await db.selectFrom('images').select('sha256').where('sha256', '=', key.sha256).executeTakeFirst();
  return row?.sha256;
}

/**
 * How a pin takes an image address (creating it, or its owner replacing the image): a stored
 * /media/ image at once; an address the fetch guard refuses without connecting (a private IP, a
 * port or scheme it does not fetch, localhost) is never shown, since every viewer's browser would
 * fetch it, and is kept for the owner only (docs/images.md; addresses refused after a DNS lookup
 * are hidden by the fetch); any other remote address is fetched by a job, within the user's
 * pending fetches (429 beyond).
 */
async function imageIntake(ctx: ServiceContext, userId: number, imageUrl: string) {
  const stored = await storedImageOf(ctx.db, imageUrl);
  const remote = !stored && !imageUrl.startsWith(`${MEDIA_PATH}/`);
  const refusal = remote ? refusedUpFront(imageUrl, ctx.fetching.allow) : undefined;
  const refused = refusal !== undefined && REFUSED_ADDRESS.has(refusal) ? refusal : undefined;
  const group = fetchGroup(userId);
  if (remote && !refused && (await ctx.jobs.pending(ctx.db, 'image.fetch', group, ctx.fetching.pendingPerUser)) >= ctx.fetching.pendingPerUser) {
    throw new HttpError(429, MSG.importsPending, { retryAfterSeconds: 60 });
  }
  return {
    columns: { image_url: refused ? '' : imageUrl, refused_image_url: refused ? imageUrl : null, image_sha256: stored ?? null, image_failure: refused ?? null },
    /** Queues the fetch in the writing transaction, when there is one to run. */
    queue: async (db: Kysely<DB>, pinId: number) => {
      if (remote && !refused) await ctx.jobs.send(db, 'image.fetch', { pinId, url: imageUrl, userId }, { group });
    },
  };
}

export interface PinInput {
  title: string;
  imageUrl: string;
  description: string;
  sourceUrl?: string | null | undefined;
  createdAt?: Date | undefined;
  /** A board the caller may add to: the pin is made in it. */
  boardId?: number | undefined;
  /** Absent: private when made into a private board, else public. */
  visibility?: PinVisibilityValue | undefined;
  /** What the picture shows, for people who cannot see it; absent or null: none. */
  altText?: string | null | undefined;
}

/** What a new pin is when its maker does not say: private when it goes into a private board. */
async function defaultVisibility(db: Kysely<DB>, boardId: number | undefined): Promise<PinVisibilityValue> {
  if (boardId === undefined) return 'public';
  const board = await db.selectFrom('boards').select('visibility').where('id', '=', boardId).executeTakeFirst();
  return board?.visibility === 'public' ? 'public' : 'private';
}

export async function createPin(ctx: ServiceContext, userId: number, input: PinInput): Promise<Pin> {
  const intake = await imageIntake(ctx, userId, input.imageUrl);
  // The pin, its fetch job, its place on the board and its change-log rows commit together: no
  // pin without its fetch or its board, no job for a pin that was never saved, no change that the
  // log does not have.
  return write(ctx, async (db, record) => {
    const wanted = input.visibility ?? (await defaultVisibility(db, input.boardId));
    const row = await db
      .insertInto('pins')
      .values({
        user_id: userId,
        title: input.title,
        ...intake.columns,
        description: input.description,
        tags: parseTags(input.description),
        source_url: input.sourceUrl ?? null,
        alt_text: input.altText ?? null,
        ...visibilityFor(wanted === 'public', intake.columns.refused_image_url !== null),
        ...(input.createdAt ? { created_at: input.createdAt } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await intake.queue(db, row.id);
    // A board the caller may not add to refuses it, and the pin is not made either.
    if (input.boardId !== undefined) await addPinToBoard({ ...ctx, db }, userId, input.boardId, row.id);
    const pin = await getPin(db, row.id);
    record('pin:created', { pin }, await pinAudience(db, pin.id, 'feed'));
    return pin;
  });
}

/**
 * What a new image address sets on an owner's pin (docs/image-repair.md): taken in as when the pin
 * was created (a stored upload at once, anything else imported again: the same address of a pin
 * with no image is a retry). The same address of a pin that has its image changes nothing.
 */
async function newImage(ctx: ServiceContext, userId: number, id: number, imageUrl: string | undefined) {
  if (imageUrl === undefined) return undefined;
  const current = await ctx.db.selectFrom('pins').select(['image_url', 'image_sha256']).where('id', '=', id).executeTakeFirst();
  if (current?.image_url === imageUrl && current.image_sha256 !== null) return undefined;
  return imageIntake(ctx, userId, imageUrl);
}

/**
 * An owner's edit: the text (`title`, with `description`), the image, who sees it, the alt text
 * (null removes it) — each only when given. Switching who sees it is told as what it is to each
 * reader (docs/who-sees-what.md): made private, the pin is deleted for everyone but its viewers (and
 * its earlier public rows leave the log), who get it again; made public, everyone gets it as new.
 */
export async function updatePin(
  ctx: ServiceContext,
  userId: number,
  id: number,
  input: {
    title?: string | undefined;
    description?: string | undefined;
    imageUrl?: string | undefined;
    visibility?: PinVisibilityValue | undefined;
    altText?: string | null | undefined;
  },
): Promise<Pin> {
  await assertOwnPin(ctx.db, userId, id); // before the address is judged or counted against anything
  const intake = await newImage(ctx, userId, id, input.imageUrl);
  return write(ctx, async (db, record) => {
    await assertOwnPin(db, userId, id);
    await intake?.queue(db, id);
    const before = await db.selectFrom('pins').select(['visibility', 'waits_for_picture', 'image_sha256', 'refused_image_url']).where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
    const text = input.title === undefined ? {} : { title: input.title, description: input.description ?? '', tags: parseTags(input.description ?? '') };
    // Who sees it: as asked, else as before; a public one waits while it has no picture (pictureless.ts).
    const wantsPublic = input.visibility ? input.visibility === 'public' : before.visibility === 'public' || before.waits_for_picture;
    const pictureless = intake ? pictureAfter(intake.columns, before.waits_for_picture) : before.image_sha256 === null && (before.refused_image_url !== null || before.waits_for_picture);
    const seen = visibilityFor(wantsPublic, pictureless);
    const alt = input.altText === undefined ? {} : { alt_text: input.altText };
    const updated = await db
      .updateTable('pins')
      .set({ ...text, ...intake?.columns, ...seen, ...alt, updated_at: new Date() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw notFound('Pin');
    const pin = await getPin(db, id);
    const switched = before.visibility !== seen.visibility;
    // The log's earlier rows of this pin stop carrying the old text (docs/change-log.md), unless
    // they all leave it (made private).
    if (!switched || seen.visibility === 'public') await supersedeChanges(db, { pinEdited: pin });
    if (switched) await announceSwitch(db, record, id, seen.visibility);
    else record('pin:updated', { pin }, await pinAudience(db, id, 'feed'));
    return pin;
  });
}

/** Where the pin's image stands, with why its import gave up (the owner's only: 403 for others). */
export async function imageStatus(db: Kysely<DB>, userId: number, id: number): Promise<ImageStatus> {
  const row = await db.selectFrom('pins').select(['user_id', 'image_url', 'refused_image_url', 'image_sha256', 'image_failure']).where('id', '=', id).executeTakeFirst();
  // Someone else's: forbidden, or, when they may not even see it, as if it did not exist.
  if (!row || (row.user_id !== userId && !(await canSeePin(db, userId, id)))) throw notFound('Pin');
  if (row.user_id !== userId) throw forbidden();
  if (row.image_sha256 !== null) return { status: 'stored', reason: null, message: null };
  // A refused address is kept for its owner only; an upload's address is never imported, so
  // without its image row it will not come.
  const address = row.refused_image_url ?? row.image_url;
  const reason = row.image_failure ?? (row.refused_image_url ? 'blocked_address' : row.image_url.startsWith(`${MEDIA_PATH}/`) ? 'not_stored' : null);
  return reason === null ? { status: 'importing', reason: null, message: null } : { status: 'failed', reason, message: fetchFailureMessage(reason, address) };
}

export async function deletePin(ctx: ServiceContext, userId: number, id: number): Promise<void> {
  await write(ctx, async (db, record) => {
    await assertOwnPin(db, userId, id);
    const deleted = await db.deleteFrom('pins').where('id', '=', id).where('user_id', '=', userId).returning('id').executeTakeFirst();
    if (!deleted) throw notFound('Pin');
    // Its text, and its comments', leaves the log with it; the deletion is logged by id only.
    await supersedeChanges(db, { pinDeleted: id });
    record('pin:deleted', { pinId: id }, 'feed');
  });
}
