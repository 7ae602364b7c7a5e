import type { Kysely } from 'kysely';
import type { PresentUser } from '../../contract/presence.ts';
import type { DB } from '../../db/schema.ts';

// The database questions board presence asks: may this user be present on the board (its owner or
// a collaborator), which of the present users still may, and what are they called.

export async function isBoardMember(db: Kysely<DB>, boardId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('boards')
    .select('boards.id')
    .where('boards.id', '=', boardId)
    .where((eb) =>
      eb.or([
        eb('boards.user_id', '=', userId),
        eb.exists(eb.selectFrom('board_members').select('board_members.board_id').where('board_members.board_id', '=', boardId).where('board_members.user_id', '=', userId)),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The users with these ids, by username (unknown ids are left out). */
export async function presentUsers(db: Kysely<DB>, ids: readonly number[]): Promise<PresentUser[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...ids])
    .orderBy('username')
    .execute();
}

/** Pairs per query: a heartbeat on a busy instance asks about many boards at once. */
const MEMBERSHIP_CHUNK = 500;

/**
 * Of these (board, user) pairs, the ones where the user is the board's owner or a collaborator,
 * as `board:user` (a deleted board has none): the presence heartbeat's membership check.
 */
export async function boardMemberships(db: Kysely<DB>, pairs: ReadonlyArray<{ boardId: number; userId: number }>): Promise<Set<string>> {
  const members = new Set<string>();
  for (let from = 0; from < pairs.length; from += MEMBERSHIP_CHUNK) {
    const chunk = pairs.slice(from, from + MEMBERSHIP_CHUNK);
    const boardIds = [...new Set(chunk.map((pair) => pair.boardId))];
    const userIds = [...new Set(chunk.map((pair) => pair.userId))];
    const rows = await db
      .selectFrom('boards')
      .select(['boards.id as board_id', 'boards.user_id'])
      .where('boards.id', 'in', boardIds)
      .where('boards.user_id', 'in', userIds)
      .unionAll(
        db.selectFrom('board_members').select(['board_members.board_id', 'board_members.user_id']).where('board_members.board_id', 'in', boardIds).where('board_members.user_id', 'in', userIds),
      )
      .execute();
    for (const row of rows) members.add(`${row.board_id}:${row.user_id}`);
  }
  return members;
}
