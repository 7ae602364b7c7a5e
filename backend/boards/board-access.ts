import { type Kysely, sql } from 'kysely';
import type { BoardReaderRole, BoardRole } from '../../contract/boards.ts';
import { MSG } from '../../contract/messages.ts';
import type { DB } from '../../db/schema.ts';
import { forbidden, notFound } from '../errors.ts';

// Who may do what on a board (docs/board-sharing.md). Members (the owner, `boards.user_id`, and the
// collaborators in `board_members`) read it and add or remove its pins; only the owner renames,
// deletes or changes members. Anyone else gets 404, exactly like a board that does not exist, so
// nobody can probe which board ids are taken. A member trying an owner-only action gets 403: they
// can see the board, so hiding it would only confuse. A public board is also read (never changed)
// by anyone, as a `viewer`; its private pins stay its members' (board-pin-filter.ts).

export interface BoardAccess {
  ownerId: number;
  role: BoardRole;
}

/**
 * The caller's role on the board, or 404. With `lock` (inside a transaction), the board's row is
 * locked until the commit: every change to the board's pins (whose count trigger updates that
 * row) and members takes this lock, so the member list a change reads is the one in force when it
 * commits, and a collaborator removed a moment ago cannot slip a last pin in.
 */
export async function boardAccess(db: Kysely<DB>, userId: number, boardId: number, options: { lock?: boolean } = {}): Promise<BoardAccess> {
  const row = await readAccessRow(db, userId, boardId, options.lock ?? false);
  if (!row) throw notFound('Board');
  if (row.user_id === userId) return { ownerId: row.user_id, role: 'owner' };
  if (row.collaborator) return { ownerId: row.user_id, role: 'collaborator' };
  throw notFound('Board');
}

export interface BoardReadAccess {
  ownerId: number;
  role: BoardReaderRole;
}

/**
 * Who may read the board: its members, and anyone (signed in or not, `userId` undefined) when it
 * is public, as a `viewer`. A private board is 404 to everyone else, as in boardAccess.
 */
export async function boardReadAccess(db: Kysely<DB>, userId: number | undefined, boardId: number): Promise<BoardReadAccess> {
  const row = await readAccessRow(db, userId, boardId, false);
  if (!row) throw notFound('Board');
  if (row.user_id === userId) return { ownerId: row.user_id, role: 'owner' };
  if (row.collaborator) return { ownerId: row.user_id, role: 'collaborator' };
  if (row.visibility === 'public') return { ownerId: row.user_id, role: 'viewer' };
  throw notFound('Board');
}

/** The board's owner and visibility, and whether `userId` is a collaborator (one primary-key probe). */
async function readAccessRow(db: Kysely<DB>, userId: number | undefined, boardId: number, lock: boolean) {
  let select = db
    .selectFrom('boards')
    .select((eb) => [
      'boards.user_id',
      'boards.visibility',
      userId === undefined
        ? sql<boolean>`false`.as('collaborator')
        : eb.exists(eb.selectFrom('board_members').select(sql.lit(1).as('one')).where('board_id', '=', boardId).where('user_id', '=', userId)).as('collaborator'),
    ])
    .where('boards.id', '=', boardId);
  if (lock) select = select.forUpdate();
  return select.executeTakeFirst();
}

/** Owner-only actions: a collaborator is refused with 403 (they know the board exists). */
export function requireOwner(access: BoardAccess): void {
  if (access.role !== 'owner') throw forbidden(MSG.boardOwnerOnly);
}

/**
 * Everyone on the board right now, owner first: who a change is shown to (its change-log audience
 * and the `user:` rooms its event goes to). Read inside the change's transaction, after the lock.
 */
export async function memberIdsOf(db: Kysely<DB>, boardId: number, ownerId: number): Promise<number[]> {
  const rows = await db.selectFrom('board_members').select('user_id').where('board_id', '=', boardId).orderBy('user_id').execute();
  return [ownerId, ...rows.map((row) => row.user_id)];
}
