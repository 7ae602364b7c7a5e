import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { BoardPin } from '../../contract/boards.ts';
import type { Merged, MergeBody, MergeUndone } from '../../contract/duplicates.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import { memberIdsOf } from '../boards/board-access.ts';
import { supersedeChanges } from '../changes/supersede.ts';
import { type RecordChange, write } from '../changes/write.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, HttpError, notFound } from '../errors.ts';
import { settleLikes } from '../favorites/likes.ts';
import { getPin } from '../pins/pins.service.ts';
import { canSeePin, pinAudience, pinViewers } from '../visibility/pin-access.ts';

// Merging duplicates (docs/duplicates.md): the pin kept takes the boards, favorites and comments
// of the pins merged into it, which are deleted, in one write; what it takes to put them back is
// kept in `pin_merges` for UNDO_MINUTES, and an undo re-creates them, with their ids, from it.

/** How long a merge may be undone. */
export const UNDO_MINUTES = 15;

/** The pins columns a merged pin is re-created with (the rest are generated, counted or copied by triggers). */
const RESTORED_COLUMNS = [
  'id',
  'user_id',
  'title',
  'image_url',
  'description',
  'created_at',
  'updated_at',
  'likes_version',
  'image_sha256',
  'source_url',
  'tags',
  'refused_image_url',
  'image_failure',
  'visibility',
  'waits_for_picture',
  'alt_text',
] as const;

const MergedPinSnapshot = z.object({
  /** The pin's row (RESTORED_COLUMNS), as `to_jsonb` wrote it. */
  row: z.record(z.string(), z.unknown()),
  boards: z.array(z.object({ board_id: z.number().int(), added_at: z.string() })),
  favorites: z.array(z.object({ id: z.number().int(), user_id: z.number().int(), created_at: z.string() })),
  /**
   * Its comments: those `moved` to the kept pin are moved back by an undo; the others (their
   * author had commented on the kept pin already: one comment per author and pin) went with the
   * pin, and are re-created.
   */
  comments: z.array(z.object({ id: z.number().int(), user_id: z.number().int(), text: z.string(), created_at: z.string(), updated_at: z.string(), moved: z.boolean() })),
});

/** What an undo needs: the merged pins, and what the kept pin gained (taken away again). */
const MergeSnapshot = z.object({
  pins: z.array(MergedPinSnapshot.extend({ id: z.number().int() })),
  addedBoards: z.array(z.number().int()),
  addedFavorites: z.array(z.number().int()),
});
type MergeSnapshot = z.infer<typeof MergeSnapshot>;

/** Locks the pins (in id order: every merge takes them so) and checks they are all the caller's: 404 unseen, 403 someone else's. */
async function lockOwnPins(db: Kysely<DB>, userId: number, ids: readonly number[]): Promise<void> {
  const rows = await db
    .selectFrom('pins')
    .select(['id', 'user_id'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
  const owners = new Map(rows.map((row) => [row.id, row.user_id]));
  for (const id of ids) {
    const owner = owners.get(id);
    if (owner === undefined || (owner !== userId && !(await canSeePin(db, userId, id)))) throw notFound('Pin');
  }
  if (rows.some((row) => row.user_id !== userId)) throw forbidden();
}

const boardPinOf = (pin: Pin): BoardPin => ({ id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image, visibility: pin.visibility });
type LikesCount = { likes_count: number; likes_version: number };
const favoriteOf = (pin: Pin, id: number, count: LikesCount): Favorite => ({ id, pin_id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image, ...count, visibility: pin.visibility });

/** Tells a board's members that a pin was added to it or removed from it. */
async function recordBoardEntry(db: Kysely<DB>, record: RecordChange, boardId: number, change: { added: Pin } | { removed: number }): Promise<void> {
  const board = await db.selectFrom('boards').select(['user_id', 'pin_count']).where('id', '=', boardId).executeTakeFirstOrThrow();
  const audience = { userIds: await memberIdsOf(db, boardId, board.user_id) };
  if ('added' in change) record('board:pin-added', { boardId, pin: boardPinOf(change.added), pinCount: board.pin_count }, audience);
  else record('board:pin-removed', { boardId, pinId: change.removed, pinCount: board.pin_count }, audience);
}

/**
 * Takes the pin's next likes version after favorites moved (waiting for its row, folding its
 * deltas: backend/favorites/likes.ts), and tells its room the count (answered: the favorites carry it).
 */
async function recordLikes(db: Kysely<DB>, record: RecordChange, pinId: number): Promise<LikesCount> {
  const row = await settleLikes(db, record, pinId);
  if (!row) throw notFound('Pin');
  return row;
}

/** Tells a pin's readers of each of these comments, now on it. */
async function recordComments(db: Kysely<DB>, record: RecordChange, pinId: number, commentIds: readonly number[]): Promise<void> {
  if (commentIds.length === 0) return;
  const audience = await pinAudience(db, pinId, 'room');
  const rows = await db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.user_id')
    .select(['comments.id', 'comments.text', 'comments.pin_id', 'comments.user_id', 'users.username', 'comments.created_at', 'comments.updated_at'])
    .where('comments.id', 'in', [...commentIds])
    .orderBy('comments.id')
    .execute();
  for (const row of rows) record('comment:created', { comment: { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() } }, audience);
}

/** POST /api/duplicates/merge. */
export async function mergePins(ctx: ServiceContext, userId: number, body: MergeBody): Promise<Merged> {
  const { keep, merge } = body;
  return write(ctx, async (db, record) => {
    await lockOwnPins(db, userId, [keep, ...merge]);
    const snapshot = await snapshotOf(db, merge);

    // Boards: those the owner may add to (their own, or one they are a member of); an entry on a
    // stranger's board goes with the pin (it would show the kept pin to that board's members).
    const boards = await sql<{ board_id: number }>`
      insert into board_pins (board_id, pin_id)
      select distinct bp.board_id, ${keep}::int from board_pins bp join boards b on b.id = bp.board_id
      where bp.pin_id = any(${merge}::int[])
        and (b.user_id = ${userId} or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = ${userId}))
      on conflict do nothing returning board_id`.execute(db);
    const addedBoards = boards.rows.map((row) => row.board_id).sort((a, b) => a - b);

    // Favorites: of those who may see the kept pin (everyone when it is public).
    const kept = await db.selectFrom('pins').select('visibility').where('id', '=', keep).executeTakeFirstOrThrow();
    const viewers = kept.visibility === 'public' ? null : await pinViewers(db, keep);
    const favorites = await sql<{ id: number; user_id: number }>`
      insert into favorites (user_id, pin_id, created_at)
      select distinct on (f.user_id) f.user_id, ${keep}::int, f.created_at from favorites f
      where f.pin_id = any(${merge}::int[]) and (${viewers === null} or f.user_id = any(${viewers ?? []}::int[]))
      order by f.user_id, f.created_at
      on conflict do nothing returning id, user_id`.execute(db);
    const addedFavorites = favorites.rows.map((row) => row.id).sort((a, b) => a - b);

    // Comments: one per author and pin, so an author's first one moves when they have none on the kept pin.
    const moved = await sql<{ id: number }>`
      update comments set pin_id = ${keep} where id in (
        select distinct on (c.user_id) c.id from comments c
        where c.pin_id = any(${merge}::int[]) and not exists (select 1 from comments k where k.pin_id = ${keep} and k.user_id = c.user_id)
        order by c.user_id, c.id)
      returning id`.execute(db);
    const movedIds = new Set(moved.rows.map((row) => row.id));
    for (const saved of snapshot) for (const comment of saved.comments) comment.moved = movedIds.has(comment.id);

    // The merged pins go, as a deletion does (their text, and their comments', leaves the log;
    // the comments are announced again on the kept pin below).
    await db
      .deleteFrom('pins')
      .where('id', 'in', [...merge])
      .execute();
    for (const id of merge) {
      await supersedeChanges(db, { pinDeleted: id });
      record('pin:deleted', { pinId: id }, 'feed');
    }

    const pin = await getPin(db, keep);
    for (const boardId of addedBoards) await recordBoardEntry(db, record, boardId, { added: pin });
    if (favorites.rows.length > 0) {
      const count = await recordLikes(db, record, keep);
      for (const row of favorites.rows) record('favorite:added', { favorite: favoriteOf(pin, row.id, count) }, { userIds: [row.user_id] });
    }
    await recordComments(db, record, keep, [...movedIds]);

    await db
      .deleteFrom('pin_merges')
      .where('user_id', '=', userId)
      .where('created_at', '<', sql<Date>`now() - make_interval(mins => ${UNDO_MINUTES})`)
      .execute();
    const saved: MergeSnapshot = { pins: snapshot, addedBoards, addedFavorites };
    const row = await db
      .insertInto('pin_merges')
      .values({ user_id: userId, kept_pin_id: keep, snapshot: JSON.stringify(saved) })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    const undoUntil = new Date(row.created_at.getTime() + UNDO_MINUTES * 60_000).toISOString();
    return { kept: await getPin(db, keep), merged: [...merge], mergeId: row.id, undoUntil };
  });
}

/** What each merged pin is, before the merge: its row, board entries, favorites and comments. */
async function snapshotOf(db: Kysely<DB>, merge: readonly number[]): Promise<MergeSnapshot['pins']> {
  const ids = [...merge];
  const columns = sql.join(RESTORED_COLUMNS.map((column) => sql`${column}::text, p.${sql.ref(column)}`));
  const rows = await sql<{ id: number; row: Record<string, unknown> }>`
    select p.id, jsonb_build_object(${columns}) as row from pins p where p.id = any(${ids}::int[])`.execute(db);
  const boards = await db.selectFrom('board_pins').select(['pin_id', 'board_id', 'added_at']).where('pin_id', 'in', ids).orderBy('id').execute();
  const favorites = await db.selectFrom('favorites').select(['id', 'pin_id', 'user_id', 'created_at']).where('pin_id', 'in', ids).orderBy('id').execute();
  const comments = await db.selectFrom('comments').select(['id', 'pin_id', 'user_id', 'text', 'created_at', 'updated_at']).where('pin_id', 'in', ids).orderBy('id').execute();
  return rows.rows.map(({ id, row }) => ({
    id,
    row,
    boards: boards.filter((entry) => entry.pin_id === id).map((entry) => ({ board_id: entry.board_id, added_at: entry.added_at.toISOString() })),
    favorites: favorites.filter((favorite) => favorite.pin_id === id).map((favorite) => ({ id: favorite.id, user_id: favorite.user_id, created_at: favorite.created_at.toISOString() })),
    comments: comments
      .filter((comment) => comment.pin_id === id)
      .map((comment) => ({ id: comment.id, user_id: comment.user_id, text: comment.text, created_at: comment.created_at.toISOString(), updated_at: comment.updated_at.toISOString(), moved: false })),
  }));
}

/**
 * POST /api/duplicates/merge/undo: the merged pins come back with their ids, board entries,
 * favorites and comments; the kept pin loses what the merge gave it. 404 for an unknown merge (or
 * one already undone), 403 for someone else's, 409 once the window has passed.
 */
export async function undoMerge(ctx: ServiceContext, userId: number, mergeId: number): Promise<MergeUndone> {
  return write(ctx, async (db, record) => {
    const merge = await db.selectFrom('pin_merges').selectAll().where('id', '=', mergeId).forUpdate().executeTakeFirst();
    if (!merge) throw notFound('Merge');
    if (merge.user_id !== userId) throw forbidden();
    if (merge.created_at.getTime() + UNDO_MINUTES * 60_000 < Date.now()) throw new HttpError(409, 'This merge can no longer be undone.');
    const snapshot = MergeSnapshot.parse(merge.snapshot);
    const keep = merge.kept_pin_id;
    await lockOwnPins(db, userId, [keep]);

    // What the kept pin gained goes.
    const { rows: boards } = await sql<{ board_id: number }>`
      delete from board_pins where pin_id = ${keep} and board_id = any(${snapshot.addedBoards}::int[]) returning board_id`.execute(db);
    const { rows: favorites } = await sql<{ id: number; user_id: number }>`
      delete from favorites where pin_id = ${keep} and id = any(${snapshot.addedFavorites}::int[]) returning id, user_id`.execute(db);
    for (const row of boards) await recordBoardEntry(db, record, row.board_id, { removed: keep });
    for (const row of favorites) record('favorite:removed', { favoriteId: row.id, pinId: keep }, { userIds: [row.user_id] });
    if (favorites.length > 0) await recordLikes(db, record, keep);

    const columns = sql.join(RESTORED_COLUMNS.map((column) => sql.ref(column)));
    const restored: Pin[] = [];
    for (const saved of snapshot.pins) {
      await sql`insert into pins (${columns}) overriding system value select ${columns} from jsonb_populate_record(null::pins, ${JSON.stringify(saved.row)}::jsonb)`.execute(db);
      // Its board entries, on the boards that still exist, as they were.
      const entries = await sql<{ board_id: number }>`
        insert into board_pins (board_id, pin_id, added_at)
        select e.board_id, ${saved.id}::int, e.added_at from jsonb_to_recordset(${JSON.stringify(saved.boards)}::jsonb) as e(board_id integer, added_at timestamptz)
        where exists (select 1 from boards where boards.id = e.board_id)
        on conflict do nothing returning board_id`.execute(db);
      const liked = await sql<{ id: number; user_id: number }>`
        insert into favorites (id, user_id, pin_id, created_at) overriding system value
        select f.id, f.user_id, ${saved.id}::int, f.created_at from jsonb_to_recordset(${JSON.stringify(saved.favorites)}::jsonb) as f(id integer, user_id integer, created_at timestamptz)
        where exists (select 1 from users where users.id = f.user_id)
        on conflict do nothing returning id, user_id`.execute(db);
      const movedBack = saved.comments.filter((comment) => comment.moved).map((comment) => comment.id);
      const comments = await sql<{ id: number }>`
        update comments set pin_id = ${saved.id} where pin_id = ${keep} and id = any(${movedBack}::int[]) returning id`.execute(db);
      const recreated = await sql<{ id: number }>`
        insert into comments (id, user_id, pin_id, text, created_at, updated_at) overriding system value
        select c.id, c.user_id, ${saved.id}::int, c.text, c.created_at, c.updated_at
        from jsonb_to_recordset(${JSON.stringify(saved.comments.filter((comment) => !comment.moved))}::jsonb)
          as c(id integer, user_id integer, text text, created_at timestamptz, updated_at timestamptz)
        where exists (select 1 from users where users.id = c.user_id)
        on conflict do nothing returning id`.execute(db);

      const pin = await getPin(db, saved.id);
      record('pin:created', { pin }, await pinAudience(db, pin.id, 'feed'));
      for (const row of entries.rows) await recordBoardEntry(db, record, row.board_id, { added: pin });
      if (liked.rows.length > 0) {
        const count = await recordLikes(db, record, pin.id);
        for (const row of liked.rows) record('favorite:added', { favorite: favoriteOf(pin, row.id, count) }, { userIds: [row.user_id] });
      }
      const keptAudience = await pinAudience(db, keep, 'room');
      for (const row of comments.rows) record('comment:deleted', { commentId: row.id, pinId: keep }, keptAudience);
      await recordComments(
        db,
        record,
        pin.id,
        [...comments.rows, ...recreated.rows].map((row) => row.id),
      );
      restored.push(await getPin(db, saved.id));
    }
    await db.deleteFrom('pin_merges').where('id', '=', mergeId).execute();
    return { restored, kept: await getPin(db, keep) };
  });
}
