import type { Expression, Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Board, BoardPin } from '../../contract/boards.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';

/** Boards with their pins (oldest first, so the cover stays put) in one query. */
function selectBoards(db: Kysely<DB>) {
  return db
    .selectFrom('boards')
    .select((eb) => [
      'boards.id',
      'boards.name',
      'boards.user_id',
      pinsOf(eb.ref('boards.id')),
    ]);

  function pinsOf(boardId: Expression<number>) {
    return jsonArrayFrom(
      db
        .selectFrom('board_pins')
        .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
        .select(['pins.id', 'pins.title', 'pins.image_url'])
        .where('board_pins.board_id', '=', boardId)
        .orderBy('board_pins.added_at', 'asc')
        .orderBy('pins.id', 'asc'),
    ).as('pins');
  }
}

export async function listBoards(db: Kysely<DB>, userId: number): Promise<Board[]> {
  return selectBoards(db)
    .where('boards.user_id', '=', userId)
    .orderBy('boards.created_at', 'desc')
    .orderBy('boards.id', 'desc')
    .execute();
}

/**
 * Boards are private: someone else's board answers 404 exactly like a board that does not exist,
 * so nobody can probe which board ids are taken.
 */
export async function getOwnBoard(db: Kysely<DB>, userId: number, boardId: number): Promise<Board> {
  const board = await selectBoards(db).where('boards.id', '=', boardId).where('boards.user_id', '=', userId).executeTakeFirst();
  if (!board) throw notFound('Board');
  return board;
}

async function assertOwnBoard(db: Kysely<DB>, userId: number, boardId: number): Promise<void> {
  const row = await db.selectFrom('boards').select('id').where('id', '=', boardId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('Board');
}

export async function createBoard(ctx: ServiceContext, userId: number, name: string): Promise<Board> {
  const { id } = await ctx.db
    .insertInto('boards')
    .values({ user_id: userId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  const board: Board = { id, name, user_id: userId, pins: [] };
  ctx.events.publish('board.created', { board });
  return board;
}

export async function renameBoard(ctx: ServiceContext, userId: number, boardId: number, name: string): Promise<Board> {
  await assertOwnBoard(ctx.db, userId, boardId);
  await ctx.db
    .updateTable('boards')
    .set({ name, updated_at: new Date() })
    .where('id', '=', boardId)
    .where('user_id', '=', userId)
    .execute();
  const board = await getOwnBoard(ctx.db, userId, boardId);
  ctx.events.publish('board.updated', { board });
  return board;
}

export async function deleteBoard(ctx: ServiceContext, userId: number, boardId: number): Promise<void> {
  await assertOwnBoard(ctx.db, userId, boardId);
  const deleted = await ctx.db
    .deleteFrom('boards')
    .where('id', '=', boardId)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Board');
  ctx.events.publish('board.deleted', { userId, boardId });
}

/** Adds a pin to one's own board; adding it again changes nothing (`added: false`). */
export async function addPinToBoard(
  ctx: ServiceContext,
  userId: number,
  boardId: number,
  pinId: number,
): Promise<{ pin: BoardPin; added: boolean }> {
  await assertOwnBoard(ctx.db, userId, boardId);
  const pin = await ctx.db
    .selectFrom('pins')
    .select(['id', 'title', 'image_url'])
    .where('id', '=', pinId)
    .executeTakeFirst();
  if (!pin) throw notFound('Pin');
  const inserted = await ctx.db
    .insertInto('board_pins')
    .values({ board_id: boardId, pin_id: pinId })
    .onConflict((oc) => oc.constraint('board_pins_pkey').doNothing())
    .returning('pin_id')
    .executeTakeFirst();
  if (inserted) ctx.events.publish('board.pin-added', { userId, boardId, pin });
  return { pin, added: inserted !== undefined };
}

export async function removePinFromBoard(
  ctx: ServiceContext,
  userId: number,
  boardId: number,
  pinId: number,
): Promise<void> {
  await assertOwnBoard(ctx.db, userId, boardId);
  const deleted = await ctx.db
    .deleteFrom('board_pins')
    .where('board_id', '=', boardId)
    .where('pin_id', '=', pinId)
    .returning('pin_id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Pin on this board');
  ctx.events.publish('board.pin-removed', { userId, boardId, pinId });
}
