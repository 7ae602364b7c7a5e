import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Board, BoardList, BoardMemberSummary, BoardPage, BoardPin, BoardReaderRole, BoardVisibility } from '../../contract/boards.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import { write } from '../changes/write.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { MSG } from '../../contract/messages.ts';
import { visibleTo } from '../visibility/pin-access.ts';
import { imageOf } from '../images/media-urls.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { boardAccess, boardReadAccess, memberIdsOf, requireOwner } from './board-access.ts';
import { boardPinFilter } from './board-pin-filter.ts';
import { boardPinsPage, toBoardPin } from './board-pins.ts';

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

/**
 * The reader's role on the row's board: owner, collaborator (a primary-key probe of board_members),
 * else viewer (a public board read from outside; callers only select boards the reader may read).
 * `readerId` undefined: signed out, a viewer of everything.
 */
function roleOf(boardId: Expression<number>, ownerId: Expression<number>, readerId: number | undefined) {
  if (readerId === undefined) return sql<BoardReaderRole>`'viewer'`;
  return sql<BoardReaderRole>`(case when ${ownerId} = ${readerId} then 'owner'
    when exists (select 1 from board_members r where r.board_id = ${boardId} and r.user_id = ${readerId}) then 'collaborator'
    else 'viewer' end)`;
}

/**
 * Boards as `readerId` sees them, in one query: their count (a column), visibility, the reader's
 * role, members and covers, the most recently added pins (only those the reader may see: a
 * viewer's covers go through the same pin filter as a page of the board).
 */
export function selectBoards(db: Kysely<DB>, readerId: number | undefined) {
  return db.selectFrom('boards').select((eb) => {
    const role = roleOf(eb.ref('boards.id'), eb.ref('boards.user_id'), readerId);
    return [
      'boards.id',
      'boards.name',
      'boards.user_id',
      // An outsider counts what they are shown: its public pins (docs/who-sees-what.md).
      sql<number>`(case when ${role} = 'viewer' then boards.public_pin_count else boards.pin_count end)`.as('pin_count'),
      'boards.visibility',
      role.as('role'),
      ...membersOf(eb.ref('boards.id'), eb.ref('boards.user_id')),
      coversOf(eb.ref('boards.id'), sql<SqlBool>`${role} <> 'viewer'`),
    ];
  });

  function coversOf(boardId: Expression<number>, member: Expression<SqlBool>) {
    return jsonArrayFrom(
      db
        .selectFrom('board_pins')
        .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
        .select((eb) => ['pins.id', 'pins.title', 'pins.image_url', 'pins.visibility', imageOf(eb).as('image')])
        .where('board_pins.board_id', '=', boardId)
        .where(boardPinFilter(member))
        .orderBy('board_pins.id', 'desc')
        .limit(LIMITS.boardCovers),
    ).as('pins');
  }
}

type BoardRow = Omit<Board, 'pins'> & { pins: Array<Parameters<typeof toBoardPin>[0]> };

/** A board row as the wire carries it (the row already holds the reader's `role`). */
export function toBoard(row: BoardRow): Board {
  return { ...row, pins: row.pins.map(toBoardPin) };
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
  const rows = await selectBoards(db, userId)
    .where(sql<boolean>`boards.id in ${ids}`)
    .orderBy('boards.id', 'desc')
    .execute();
  const { items, nextCursor } = page.finish(rows, (board) => board.id);
  return { boards: items.map(toBoard), nextCursor };
}

/** One board with its covers and members, as `readerId` sees it (no access check: callers do it). */
export async function readBoard(db: Kysely<DB>, boardId: number, readerId: number | undefined): Promise<Board> {
  const row = await selectBoards(db, readerId).where('boards.id', '=', boardId).executeTakeFirst();
  if (!row) throw notFound('Board');
  return toBoard(row);
}

/**
 * GET /api/boards/{id}: the board and one page of its pins, most recently added first. Its members
 * read it, and anyone a public one (signed out too: `readerId` undefined), as a viewer who is
 * shown only the pins an outsider may see.
 */
export async function getBoardPage(db: Kysely<DB>, cursors: CursorCodec, readerId: number | undefined, boardId: number, query: PageParams): Promise<BoardPage> {
  const access = await boardReadAccess(db, readerId, boardId);
  const board = await readBoard(db, boardId, readerId);
  const page = await boardPinsPage(db, cursors, `board:${boardId}`, boardId, access.role === 'viewer' ? 'outsider' : 'all', query);
  return { ...board, ...page };
}

export async function createBoard(ctx: ServiceContext, userId: number, name: string): Promise<Board> {
  return write(ctx, async (trx, record) => {
    const { id } = await trx.insertInto('boards').values({ user_id: userId, name }).returning('id').executeTakeFirstOrThrow();
    const board = await readBoard(trx, id, userId);
    record('board:created', { board }, { userIds: [userId] });
    return board;
  });
}

/**
 * Owner only: a new name, a new visibility, or both. Every member sees the change (`board:updated`);
 * outsiders find a board made private gone on their next read.
 */
export async function updateBoard(ctx: ServiceContext, userId: number, boardId: number, changes: { name?: string | undefined; visibility?: BoardVisibility | undefined }): Promise<Board> {
  return write(ctx, async (trx, record) => {
    const access = await boardAccess(trx, userId, boardId, { lock: true });
    requireOwner(access);
    await trx
      .updateTable('boards')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', boardId)
      .execute();
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
export async function addPinToBoard(ctx: ServiceContext, userId: number, boardId: number, pinId: number): Promise<{ pin: BoardPin; added: boolean }> {
  // Checked before the pin so an outsider learns nothing about the pin either.
  await boardAccess(ctx.db, userId, boardId);
  const row = await ctx.db
    .selectFrom('pins')
    .select((eb) => ['pins.id', 'pins.title', 'pins.image_url', 'pins.user_id', 'pins.visibility', imageOf(eb).as('image')])
    .where('pins.id', '=', pinId)
    .where(visibleTo(userId))
    .executeTakeFirst();
  if (!row) throw notFound('Pin');
  // A private pin on another board would be shown to that board's members: its owner's call alone.
  if (row.visibility === 'private' && row.user_id !== userId) throw forbidden(MSG.privatePinOwnerOnly);
  const pin = toBoardPin(row);
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
    const deleted = await trx.deleteFrom('board_pins').where('board_id', '=', boardId).where('pin_id', '=', pinId).returning('pin_id').executeTakeFirst();
    if (!deleted) throw notFound('Pin on this board');
    const pinCount = await countAfterChange(trx, boardId);
    record('board:pin-removed', { boardId, pinId, pinCount }, { userIds: await memberIdsOf(trx, boardId, access.ownerId) });
  });
}
