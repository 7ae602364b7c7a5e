import type { Kysely } from 'kysely';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { supersedeChanges } from '../changes/supersede.ts';
import { write } from '../changes/write.ts';
import { forbidden, notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { canSeePin, pinAudience } from '../visibility/pin-access.ts';

function selectComments(db: Kysely<DB>) {
  return db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.user_id')
    .select(['comments.id', 'comments.text', 'comments.pin_id', 'comments.user_id', 'users.username', 'comments.created_at', 'comments.updated_at']);
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;

function toComment(row: CommentRow): Comment {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

/** A pin `readerId` may see (docs/who-sees-what.md), else 404 as for one that does not exist. */
async function assertPinVisible(db: Kysely<DB>, readerId: number | undefined, pinId: number): Promise<void> {
  if (!(await canSeePin(db, readerId, pinId))) throw notFound('Pin');
}

/** One page of a pin's comments, newest first, for a reader who may see the pin. */
export async function listComments(db: Kysely<DB>, cursors: CursorCodec, pinId: number, query: PageParams, readerId: number | undefined): Promise<CommentList> {
  const page = keyset(cursors, `comments:pin:${pinId}`, query);
  await assertPinVisible(db, readerId, pinId);
  let select = selectComments(db)
    .where('comments.pin_id', '=', pinId)
    .orderBy('comments.id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('comments.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.id);
  return { comments: items.map(toComment), nextCursor };
}

async function getComment(db: Kysely<DB>, id: number): Promise<Comment> {
  const row = await selectComments(db).where('comments.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Comment');
  return toComment(row);
}

/** One comment per user and pin: the unique constraint answers a second one with 409. */
/** `createdAt`: when it was written, for a comment brought back from an export (docs/import-export.md). */
export async function createComment(ctx: ServiceContext, userId: number, pinId: number, text: string, createdAt?: Date): Promise<Comment> {
  await assertPinVisible(ctx.db, userId, pinId);
  // The comment and its change-log row commit together (the log's number last: see write.ts).
  return write(ctx, async (db, record) => {
    const { id } = await db
      .insertInto('comments')
      .values({ user_id: userId, pin_id: pinId, text, ...(createdAt ? { created_at: createdAt, updated_at: createdAt } : {}) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const comment = await getComment(db, id);
    record('comment:created', { comment }, await pinAudience(db, pinId, 'room'));
    return comment;
  });
}

async function assertOwnComment(db: Kysely<DB>, userId: number, id: number): Promise<void> {
  const row = await db.selectFrom('comments').select('user_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Comment');
  if (row.user_id !== userId) throw forbidden();
}

export async function updateComment(ctx: ServiceContext, userId: number, id: number, text: string): Promise<Comment> {
  return write(ctx, async (db, record) => {
    await assertOwnComment(db, userId, id);
    const updated = await db.updateTable('comments').set({ text, updated_at: new Date() }).where('id', '=', id).where('user_id', '=', userId).returning('id').executeTakeFirst();
    if (!updated) throw notFound('Comment');
    const comment = await getComment(db, id);
    // The log's earlier rows of this comment stop carrying the old text (docs/change-log.md).
    await supersedeChanges(db, { commentEdited: comment });
    record('comment:updated', { comment }, await pinAudience(db, comment.pin_id, 'room'));
    return comment;
  });
}

export async function deleteComment(ctx: ServiceContext, userId: number, id: number): Promise<{ pinId: number }> {
  return write(ctx, async (db, record) => {
    await assertOwnComment(db, userId, id);
    const deleted = await db.deleteFrom('comments').where('id', '=', id).where('user_id', '=', userId).returning('pin_id').executeTakeFirst();
    if (!deleted) throw notFound('Comment');
    await supersedeChanges(db, { commentDeleted: id });
    const pinId = deleted.pin_id;
    record('comment:deleted', { commentId: id, pinId }, await pinAudience(db, pinId, 'room'));
    return { pinId };
  });
}
