import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { BoardList } from '../../contract/boards.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { keyset } from '../paging/keyset.ts';
import { listBoards, selectBoards, toBoard } from './boards.service.ts';

/**
 * The boards a visitor may see on `userId`'s profile (docs/profiles.md), newest first: the user's
 * public boards (anyone, signed out too: `readerId` undefined), and the boards both are members of
 * (their own profile: all their boards), each as the visitor sees it (`role` `viewer` on a public
 * board they are not a member of).
 *
 * A page is the union of short index scans, each cut to the page size before they merge: the
 * public ones from the partial index boards (user_id, id) where public, the shared ones from the
 * visitor's side (their own boards and collaborations, each checked for the profile user's
 * membership by a primary-key probe), so a page never scans the other user's private boards.
 * `union` (not `union all`): a public board both are members of comes from two sides.
 */
export async function listProfileBoards(db: Kysely<DB>, cursors: CursorCodec, readerId: number | undefined, userId: number, query: PageParams): Promise<BoardList> {
  if (readerId === userId) return listBoards(db, cursors, readerId, query);
  const page = keyset(cursors, `boards:profile:${readerId ?? 0}:${userId}`, query);
  const take = page.limit + 1;
  const before = (column: RawBuilder<unknown>) => (page.before === undefined ? sql`` : sql`and ${column} < ${page.before}`);
  const publicOnes = sql`(select p.id from boards p where p.user_id = ${userId} and p.visibility = 'public' ${before(sql`p.id`)} order by p.id desc limit ${take})`;
  let sides = publicOnes;
  if (readerId !== undefined) {
    const memberHere = (board: RawBuilder<unknown>) => sql`exists (select 1 from board_members u where u.board_id = ${board} and u.user_id = ${userId})`;
    sides = sql`${publicOnes}
      union
      (select b.id from boards b where b.user_id = ${readerId} and ${memberHere(sql`b.id`)} ${before(sql`b.id`)} order by b.id desc limit ${take})
      union
      (select m.board_id as id from board_members m join boards o on o.id = m.board_id
        where m.user_id = ${readerId} and (o.user_id = ${userId} or ${memberHere(sql`m.board_id`)}) ${before(sql`m.board_id`)}
        order by m.board_id desc limit ${take})`;
  }
  const ids = sql<number>`(select id from (${sides}) seen order by id desc limit ${take})`;
  const rows = await selectBoards(db, readerId)
    .where(sql<boolean>`boards.id in ${ids}`)
    .orderBy('boards.id', 'desc')
    .execute();
  const { items, nextCursor } = page.finish(rows, (board) => board.id);
  return { boards: items.map(toBoard), nextCursor };
}
