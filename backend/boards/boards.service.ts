import type { Expression, Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Board, BoardList, BoardPage, BoardPin } from '../../contract/boards.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../context.ts';
import { inTransaction, recordChange } from '../changes/change-log.ts';
import { notFound } from '../errors.ts';
import { imageOf, toPinImage, type ImageFields } from '../images/media-urls.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';

/** Boards with their count (a column) and covers, the most recently added pins, in one query. */
function selectBoards(db: Kysely<DB>) {
  return db
    .selectFrom('boards')
    .select((eb) => ['boards.id', 'boards.name', 'boards.user_id', 'boards.pin_count', coversOf(eb.ref('boards.id'))]);

  function coversOf(boardId: Expression<number>) {
    return jsonArrayFrom(
      db
        .selectFrom('board_pins')
        .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
        .select((eb) => ['pins.id', 'pins.title', 'pins.image_url', imageOf(eb).as('image')])
        .where('board_pins.board_id', '=', boardId)
        .orderBy('board_pins.id', 'desc')
        .limit(LIMITS.boardCovers),
    ).as('pins');
  }
}

/** A board's pin as the wire carries it: the stored image's fields become its thumbnail URLs. */
function toBoardPin(row: { id: number; title: string; image_url: string; image: ImageFields | null }): BoardPin {
  return { id: row.id, title: row.title, image_url: row.image_url, image: row.image && toPinImage(row.image) };
}

function toBoard<T extends { pins: Array<Parameters<typeof toBoardPin>[0]> }>(row: T): T & { pins: BoardPin[] } {
  return { ...row, pins: row.pins.map(toBoardPin) };
}

/** One page of the user's boards, newest first, each with its count and covers. */
export async function listBoards(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: PageParams): Promise<BoardList> {
  const page = keyset(cursors, `boards:user:${userId}`, query);
  let select = selectBoards(db).where('boards.user_id', '=', userId).orderBy('boards.id', 'desc').limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('boards.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (board) => board.id);
  return { boards: items.map(toBoard), nextCursor };
}

/**
 * Boards are private: someone else's board answers 404 exactly like a board that does not exist,
 * so nobody can probe which board ids are taken.
 */
export async function getOwnBoard(db: Kysely<DB>, userId: number, boardId: number): Promise<Board> {
  const board = await selectBoards(db).where('boards.id', '=', boardId).where('boards.user_id', '=', userId).executeTakeFirst();
  if (!board) throw notFound('Board');
  return toBoard(board);
}

/** GET /api/boards/{id}: the board and one page of its pins, most recently added first. */
export async function getBoardPage(db: Kysely<DB>, cursors: CursorCodec, userId: number, boardId: number, query: PageParams): Promise<BoardPage> {
  const page = keyset(cursors, `board:${boardId}`, query);
  const board = await db
    .selectFrom('boards')
    .select(['id', 'name', 'user_id', 'pin_count'])
    .where('id', '=', boardId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!board) throw notFound('Board');
  let select = db
    .selectFrom('board_pins')
    .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
    .select((eb) => ['board_pins.id as entry', 'pins.id', 'pins.title', 'pins.image_url', imageOf(eb).as('image')])
    .where('board_pins.board_id', '=', boardId)
    .orderBy('board_pins.id', 'desc')
    .limit(page.limit + 1);
  if (page.before !== undefined) select = select.where('board_pins.id', '<', page.before);
  const { items, nextCursor } = page.finish(await select.execute(), (row) => row.entry);
  return { ...board, pins: items.map(toBoardPin), nextCursor };
}

async function assertOwnBoard(db: Kysely<DB>, userId: number, boardId: number): Promise<void> {
  const row = await db.selectFrom('boards').select('id').where('id', '=', boardId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('Board');
}

// Change log, interim (#16): until board sharing lands, each board write and its change-log row
// (readable by the owner only) commit in one transaction. The shared-boards work replaces these
// with the members' audience.
export async function createBoard(ctx: ServiceContext, userId: number, name: string): Promise<Board> {
  const { board, seq } = await inTransaction(ctx.db, async (db) => {
    const { id } = await db.insertInto('boards').values({ user_id: userId, name }).returning('id').executeTakeFirstOrThrow();
    const created: Board = { id, name, user_id: userId, pin_count: 0, pins: [] };
    return { board: created, seq: await recordChange(db, 'board:created', { board: created }, { userIds: [userId] }) };
  });
  ctx.events.publish('board.created', { board, seq });
  return board;
}

export async function renameBoard(ctx: ServiceContext, userId: number, boardId: number, name: string): Promise<Board> {
  const { board, seq } = await inTransaction(ctx.db, async (db) => {
    await assertOwnBoard(db, userId, boardId);
    await db.updateTable('boards').set({ name, updated_at: new Date() }).where('id', '=', boardId).where('user_id', '=', userId).execute();
    const renamed = await getOwnBoard(db, userId, boardId);
    return { board: renamed, seq: await recordChange(db, 'board:updated', { board: renamed }, { userIds: [userId] }) };
  });
  ctx.events.publish('board.updated', { board, seq });
  return board;
}

export async function deleteBoard(ctx: ServiceContext, userId: number, boardId: number): Promise<void> {
  const seq = await inTransaction(ctx.db, async (db) => {
    await assertOwnBoard(db, userId, boardId);
    const deleted = await db.deleteFrom('boards').where('id', '=', boardId).where('user_id', '=', userId).returning('id').executeTakeFirst();
    if (!deleted) throw notFound('Board');
    return recordChange(db, 'board:deleted', { boardId }, { userIds: [userId] });
  });
  ctx.events.publish('board.deleted', { userId, boardId, seq });
}

/**
 * The board's count right after an entry was added or removed, in the same transaction: the
 * trigger that keeps it holds the board's row lock until the commit, so this is the count as of
 * this change.
 */
async function countAfterChange(trx: Kysely<DB>, boardId: number): Promise<number> {
  const row = await trx.selectFrom('boards').select('pin_count').where('id', '=', boardId).executeTakeFirst();
  return row?.pin_count ?? 0;
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
    .select((eb) => ['id', 'title', 'image_url', imageOf(eb).as('image')])
    .where('id', '=', pinId)
    .executeTakeFirst()
    .then((row) => row && toBoardPin(row));
  if (!pin) throw notFound('Pin');
  const added = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('board_pins')
      .values({ board_id: boardId, pin_id: pinId })
      .onConflict((oc) => oc.constraint('board_pins_pkey').doNothing())
      .returning('pin_id')
      .executeTakeFirst();
    if (!inserted) return undefined;
    const count = await countAfterChange(trx, boardId);
    return { pinCount: count, seq: await recordChange(trx, 'board:pin-added', { boardId, pin, pinCount: count }, { userIds: [userId] }) };
  });
  if (added) ctx.events.publish('board.pin-added', { userId, boardId, pin, ...added });
  return { pin, added: added !== undefined };
}

export async function removePinFromBoard(
  ctx: ServiceContext,
  userId: number,
  boardId: number,
  pinId: number,
): Promise<void> {
  await assertOwnBoard(ctx.db, userId, boardId);
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('board_pins')
      .where('board_id', '=', boardId)
      .where('pin_id', '=', pinId)
      .returning('pin_id')
      .executeTakeFirst();
    if (!deleted) return undefined;
    const count = await countAfterChange(trx, boardId);
    return { pinCount: count, seq: await recordChange(trx, 'board:pin-removed', { boardId, pinId, pinCount: count }, { userIds: [userId] }) };
  });
  if (removed === undefined) throw notFound('Pin on this board');
  ctx.events.publish('board.pin-removed', { userId, boardId, pinId, ...removed });
}
