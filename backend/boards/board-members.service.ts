import type { Kysely } from 'kysely';
import type { BoardMember, BoardMembers } from '../../contract/boards.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import type { DB } from '../../db/schema.ts';
import { write } from '../changes/write.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, HttpError, notFound } from '../errors.ts';
import { boardAccess, memberIdsOf, requireOwner } from './board-access.ts';
import { readBoard } from './boards.service.ts';
import { hasBlocked } from './blocks.service.ts';

// A board's members (docs/board-sharing.md): the owner invites collaborators by username and removes them; a
// collaborator can leave. Every change locks the board's row (boardAccess with `lock`), like the
// changes to its pins, so each change's audience is the member list in force at its commit.

const conflict = (message: string) => new HttpError(409, message);

/** GET /api/boards/{id}/members: the owner first, then collaborators in the order they joined. */
export async function listMembers(db: Kysely<DB>, userId: number, boardId: number): Promise<BoardMembers> {
  const access = await boardAccess(db, userId, boardId);
  const owner = await db.selectFrom('users').select(['id', 'username']).where('id', '=', access.ownerId).executeTakeFirstOrThrow();
  const collaborators = await db
    .selectFrom('board_members')
    .innerJoin('users', 'users.id', 'board_members.user_id')
    .leftJoin('users as adder', 'adder.id', 'board_members.added_by')
    .select(['users.id', 'users.username', 'adder.id as adder_id', 'adder.username as adder_username'])
    .where('board_members.board_id', '=', boardId)
    .orderBy('board_members.added_at')
    .orderBy('board_members.user_id')
    .execute();
  return {
    members: [
      { ...owner, role: 'owner', added_by: null },
      ...collaborators.map((row): BoardMember => ({
        id: row.id,
        username: row.username,
        role: 'collaborator',
        added_by: row.adder_id !== null && row.adder_username !== null ? { id: row.adder_id, username: row.adder_username } : null,
      })),
    ],
  };
}

/** POST /api/boards/{id}/members: the owner adds a user, found by username (case-insensitive). */
export async function addMember(ctx: ServiceContext, userId: number, boardId: number, username: string): Promise<BoardMember> {
  return write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    requireOwner(access);
    // lower(username) is what the unique index users_username_key holds.
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username'])
      .where((eb) => eb(eb.fn('lower', ['username']), '=', eb.fn('lower', [eb.val(username)])))
      .executeTakeFirst();
    // Someone who blocked this owner gets the same answer as a name nobody has: the owner is not
    // told they were blocked (docs/board-sharing.md).
    if (!user || (user.id !== access.ownerId && (await hasBlocked(trx, user.id, userId)))) throw notFound('User');
    if (user.id === access.ownerId) throw conflict(MSG.boardMemberAlready);
    const { count } = await trx
      .selectFrom('board_members')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('board_id', '=', boardId)
      .executeTakeFirstOrThrow();
    const inserted = await trx
      .insertInto('board_members')
      .values({ board_id: boardId, user_id: user.id, added_by: userId })
      .onConflict((oc) => oc.columns(['board_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) throw conflict(MSG.boardMemberAlready);
    // Counted before the insert, under the board's lock: no two invitations can both take the last place.
    if (Number(count) >= LIMITS.boardCollaborators) throw conflict(MSG.boardMembersFull);
    const adder = await trx.selectFrom('users').select(['id', 'username']).where('id', '=', userId).executeTakeFirstOrThrow();
    const member: BoardMember = { ...user, role: 'collaborator', added_by: adder };
    const board = await readBoard(trx, boardId, userId);
    // Every member hears of it, the new one included (so the board appears in their list).
    record('board:member-added', { boardId, member, board }, { userIds: await memberIdsOf(trx, boardId, access.ownerId) });
    return member;
  });
}

/**
 * DELETE /api/boards/{id}/members/{userId}: the owner removes a collaborator, or a collaborator
 * leaves. The owner cannot leave (they delete the board instead); a collaborator cannot remove
 * anyone else (403: they are a member, so the board is no secret to them).
 */
export async function removeMember(ctx: ServiceContext, userId: number, boardId: number, memberId: number): Promise<void> {
  await write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    if (access.role === 'owner' && memberId === userId) throw forbidden(MSG.boardOwnerCannotLeave);
    if (access.role === 'collaborator' && memberId !== userId) throw forbidden(MSG.boardCollaboratorLeaveOnly);
    const deleted = await trx.deleteFrom('board_members').where('board_id', '=', boardId).where('user_id', '=', memberId).returning('user_id').executeTakeFirst();
    if (!deleted) throw notFound('Member');
    // The removed user hears of it too: their open board page closes.
    const memberIds = [...(await memberIdsOf(trx, boardId, access.ownerId)), memberId];
    record('board:member-removed', { boardId, userId: memberId }, { userIds: memberIds });
  });
}
