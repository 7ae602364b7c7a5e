import type { Kysely } from 'kysely';
import type { PresentUser } from '../../contract/presence.ts';
import type { DB } from '../../db/schema.ts';

// The database questions board presence asks: may this user be present on the board (its owner or
// a collaborator, DESIGN §12), and what are the present users called.

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
  return db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids]).orderBy('username').execute();
}
