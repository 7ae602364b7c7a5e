import type { Kysely } from 'kysely';
import type { BlockedUser, BlockList } from '../../contract/blocks.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import { HttpError, notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';

// Blocking (docs/board-sharing.md): a user keeps a list of users who may not add them to boards.
// The list is theirs alone; nobody is told they were blocked.

/** Whether `userId` has blocked `otherId` (one probe of the unique (user_id, blocked_id)). */
export async function hasBlocked(db: Kysely<DB>, userId: number, otherId: number): Promise<boolean> {
  const row = await db.selectFrom('user_blocks').select('id').where('user_id', '=', userId).where('blocked_id', '=', otherId).executeTakeFirst();
  return row !== undefined;
}

function selectBlocks(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('user_blocks')
    .innerJoin('users', 'users.id', 'user_blocks.blocked_id')
    .select(['user_blocks.id as block_id', 'users.id', 'users.username', 'user_blocks.created_at'])
    .where('user_blocks.user_id', '=', userId);
}

const toBlockedUser = (row: { id: number; username: string; created_at: Date }): BlockedUser => ({
  id: row.id,
  username: row.username,
  blocked_at: row.created_at.toISOString(),
});

/** GET /api/users/blocks: one page, most recently blocked first. */
export async function listBlocks(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: PageParams): Promise<BlockList> {
  const page = keyset(cursors, `blocks:user:${userId}`, query);
  let select = selectBlocks(db, userId)
    .orderBy('user_blocks.id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('user_blocks.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.block_id);
  return { blocks: items.map(toBlockedUser), nextCursor };
}

/** Refuses a block that cannot be: of oneself (400), of a user who does not exist (404). */
export async function checkBlockable(db: Kysely<DB>, userId: number, blockedId: number): Promise<void> {
  if (blockedId === userId) throw new HttpError(400, MSG.blockSelf, { fields: { userId: MSG.blockSelf } });
  const target = await db.selectFrom('users').select('id').where('id', '=', blockedId).executeTakeFirst();
  if (!target) throw notFound('User');
}

/** POST /api/users/blocks: `userId` blocks `blockedId`; a second block of the same user changes nothing (`created` false). */
export async function blockUser(db: Kysely<DB>, userId: number, blockedId: number): Promise<{ block: BlockedUser; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    const existing = await selectBlocks(trx, userId).where('user_blocks.blocked_id', '=', blockedId).executeTakeFirst();
    if (existing) return { block: toBlockedUser(existing), created: false };
    // A bound on the list, not a secret: counted without a lock (two blocks at once may pass it by one).
    const { count } = await trx
      .selectFrom('user_blocks')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= LIMITS.blocksPerUser) throw new HttpError(409, MSG.blocksFull);
    await trx
      .insertInto('user_blocks')
      .values({ user_id: userId, blocked_id: blockedId })
      .onConflict((oc) => oc.columns(['user_id', 'blocked_id']).doNothing())
      .execute();
    const row = await selectBlocks(trx, userId).where('user_blocks.blocked_id', '=', blockedId).executeTakeFirstOrThrow();
    return { block: toBlockedUser(row), created: true };
  });
}

/** DELETE /api/users/blocks/{userId}: 404 when that user is not blocked. */
export async function unblockUser(db: Kysely<DB>, userId: number, blockedId: number): Promise<void> {
  const deleted = await db.deleteFrom('user_blocks').where('user_id', '=', userId).where('blocked_id', '=', blockedId).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw notFound('Block');
}
