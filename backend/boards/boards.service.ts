import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { type Board, type BoardList, type BoardMemberSummary, type BoardPage, type BoardPin, boardForReader } from '../../contract/boards.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import { write } from '../changes/write.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { imageOf, toPinImage, type ImageFields } from '../images/media-urls.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { boardAccess, memberIdsOf, requireOwner } from './board-access.ts';

/**
 * A board's members for avatars: the owner, then the first collaborators to join, at most
 * LIMITS.boardMemberAvatars in all; and how many members it has.
 */
function membersOf(boardId: Expression<number>, ownerId: Expression<number>) {
  return [
    sql<BoardMemberSummary[]>`(
      select coalesce(json_agg(json_build_object('id', m.id, 'username', m.username) order by m.ord, m.added_at, m.id), '[]')
      from (
        select u.id, u.username, 0 as ord, null::timestamptz as added_at from users u where u.id = ${ownerId}
        union all
        (select u.id, u.username, 1, bm.added_at from board_members bm join users u on u.id = bm.user_id
          where bm.board_id = ${boardId} order by bm.added_at, bm.user_id limit ${LIMITS.boardMemberAvatars - 1})
      ) m
    )`.as('members'),
    sql<number>`(1 + (select count(*) from board_members bm where bm.board_id = ${boardId}))::int`.as('member_count'),
  ];
}

/** Boards with their count (a column), members and covers, the most recently added pins, in one query. */
function selectBoards(db: Kysely<DB>) {
  return db
    .selectFrom('boards')
    .select((eb) => [
      'boards.id',
      'boards.name',
      'boards.user_id',
      'boards.pin_count',
      ...membersOf(eb.ref('boards.id'), eb.ref('boards.user_id')),
      coversOf(eb.ref('boards.id')),
    ]);

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

type BoardRow = Omit<Board, 'pins' | 'role'> & { pins: Array<Parameters<typeof toBoardPin>[0]> };

/** A board row as `readerId` sees it (their `role`). */
function toBoard(row: BoardRow, readerId: number): Board {
  return boardForReader({ ...row, pins: row.pins.map(toBoardPin), role: 'owner' }, readerId);
}

/**
 * One page of the boards the user is a member of (their own and those shared with them), newest
 * (highest id) first. Board ids are unique across both kinds, so the id is a stable key for the
 * union: each side is read newest first from its own index (boards (user_id, id desc),
 * board_members (user_id, board_id)) and cut to the page size before they are merged, so a page
 * costs two short index scans at any depth. The owner is never in board_members (adding them is
 * refused), so `union all` counts no board twice.
 */
export async function listBoards(db: Kysely<DB>, cursors: CursorCodec, userId: number, query: PageParams): Promise<BoardList> {
  const page = keyset(cursors, `boards:user:${userId}`, query);
  const take = page.limit + 1;
  const before = page.before === undefined ? sql`` : sql`and id < ${page.before}`;
  const beforeShared = page.before === undefined ? sql`` : sql`and board_id < ${page.before}`;
  const ids = sql<number>`(
    select id from (
      (select id from boards where user_id = ${userId} ${before} order by id desc limit ${take})
      union all
      (select board_id as id from board_members where user_id = ${userId} ${beforeShared} order by board_id desc limit ${take})
    ) mine order by id desc limit ${take}
  )`;
  const rows = await selectBoards(db).where(sql<boolean>`boards.id in ${ids}`).orderBy('boards.id', 'desc').execute();
  const { items, nextCursor } = page.finish(rows, (board) => board.id);
  return { boards: items.map((row) => toBoard(row, userId)), nextCursor };
}

/**
 * The boards a visitor may see on `userId`'s profile (docs/profiles.md): boards are private to their
 * members, so the ones both are members of, as the visitor sees them (their own profile: all their
 * boards). Read from the visitor's side with the same two index scans as listBoards, each row
 * checked for the profile user's membership by a primary-key probe: a page costs at most the
 * visitor's own boards, never a scan of the profile user's.
 */
export async function listBoardsSharedWith(db: Kysely<DB>, cursors: CursorCodec, readerId: number, userId: number, query: PageParams): Promise<BoardList> {
  if (readerId === userId) return listBoards(db, cursors, readerId, query);
  const page = keyset(cursors, `boards:shared:${readerId}:${userId}`, query);
  const take = page.limit + 1;
  const before = page.before === undefined ? sql`` : sql`and b.id < ${page.before}`;
  const beforeShared = page.before === undefined ? sql`` : sql`and m.board_id < ${page.before}`;
  const memberHere = (board: RawBuilder<unknown>) => sql`exists (select 1 from board_members u where u.board_id = ${board} and u.user_id = ${userId})`;
  const ids = sql<number>`(
    select id from (
      (select b.id from boards b where b.user_id = ${readerId} and ${memberHere(sql`b.id`)} ${before} order by b.id desc limit ${take})
      union all
      (select m.board_id as id from board_members m join boards o on o.id = m.board_id
        where m.user_id = ${readerId} and (o.user_id = ${userId} or ${memberHere(sql`m.board_id`)}) ${beforeShared}
        order by m.board_id desc limit ${take})
    ) shared order by id desc limit ${take}
  )`;
  const rows = await selectBoards(db).where(sql<boolean>`boards.id in ${ids}`).orderBy('boards.id', 'desc').execute();
  const { items, nextCursor } = page.finish(rows, (board) => board.id);
  return { boards: items.map((row) => toBoard(row, readerId)), nextCursor };
}

/** One board with its covers and members, as `readerId` sees it (no access check: callers do it). */
export async function readBoard(db: Kysely<DB>, boardId: number, readerId: number): Promise<Board> {
  const row = await selectBoards(db).where('boards.id', '=', boardId).executeTakeFirst();
  if (!row) throw notFound('Board');
  return toBoard(row, readerId);
}

/** GET /api/boards/{id}: the board and one page of its pins, most recently added first (members only). */
export async function getBoardPage(db: Kysely<DB>, cursors: CursorCodec, userId: number, boardId: number, query: PageParams): Promise<BoardPage> {
  const page = keyset(cursors, `board:${boardId}`, query);
  await boardAccess(db, userId, boardId);
  const board = await readBoard(db, boardId, userId);
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

export async function createBoard(ctx: ServiceContext, userId: number, name: string): Promise<Board> {
  return write(ctx, async (trx, record) => {
    const { id } = await trx.insertInto('boards').values({ user_id: userId, name }).returning('id').executeTakeFirstOrThrow();
    const board = await readBoard(trx, id, userId);
    record('board:created', { board }, { userIds: [userId] });
    return board;
  });
}

/** Owner only. Every member sees the new name. */
export async function renameBoard(ctx: ServiceContext, userId: number, boardId: number, name: string): Promise<Board> {
  return write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    requireOwner(access);
    await trx.updateTable('boards').set({ name, updated_at: new Date() }).where('id', '=', boardId).execute();
    const board = await readBoard(trx, boardId, userId);
    record('board:updated', { board }, { userIds: await memberIdsOf(trx, boardId, access.ownerId) });
    return board;
  });
}

/** Owner only. Its collaborators lose it too (board_members rows go with the board). */
export async function deleteBoard(ctx: ServiceContext, userId: number, boardId: number): Promise<void> {
  await write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    requireOwner(access);
    // Read before the delete: the collaborators' rows are deleted with the board.
    const memberIds = await memberIdsOf(trx, boardId, access.ownerId);
    await trx.deleteFrom('boards').where('id', '=', boardId).execute();
    record('board:deleted', { boardId }, { userIds: memberIds });
  });
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

/** Adds a pin to a board the user is a member of; adding it again changes nothing (`added: false`). */
export async function addPinToBoard(
  ctx: ServiceContext,
  userId: number,
  boardId: number,
  pinId: number,
): Promise<{ pin: BoardPin; added: boolean }> {
  // Checked before the pin so an outsider learns nothing about the pin either.
  await boardAccess(ctx.db, userId, boardId);
  const pin = await ctx.db
    .selectFrom('pins')
    .select((eb) => ['id', 'title', 'image_url', imageOf(eb).as('image')])
    .where('id', '=', pinId)
    .executeTakeFirst()
    .then((row) => row && toBoardPin(row));
  if (!pin) throw notFound('Pin');
  const added = await write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    const inserted = await trx
      .insertInto('board_pins')
      .values({ board_id: boardId, pin_id: pinId })
      .onConflict((oc) => oc.constraint('board_pins_pkey').doNothing())
      .returning('pin_id')
      .executeTakeFirst();
    if (!inserted) return false;
    const pinCount = await countAfterChange(trx, boardId);
    record('board:pin-added', { boardId, pin, pinCount }, { userIds: await memberIdsOf(trx, boardId, access.ownerId) });
    return true;
  });
  return { pin, added };
}

/** Removes a pin from a board the user is a member of. */
export async function removePinFromBoard(ctx: ServiceContext, userId: number, boardId: number, pinId: number): Promise<void> {
  await write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    const deleted = await trx
      .deleteFrom('board_pins')
      .where('board_id', '=', boardId)
      .where('pin_id', '=', pinId)
      .returning('pin_id')
      .executeTakeFirst();
    if (!deleted) throw notFound('Pin on this board');
    const pinCount = await countAfterChange(trx, boardId);
    record('board:pin-removed', { boardId, pinId, pinCount }, { userIds: await memberIdsOf(trx, boardId, access.ownerId) });
  });
}


