import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { BOARD_LINK_MSG, BOARD_LINK_RULES } from '../../contract/board-link-rules.ts';
import type { BoardLink, BoardLinkCreated, LinkedBoardPage } from '../../contract/board-links.ts';
import type { PageParams } from '../../contract/paging.ts';
import type { DB } from '../../db/schema.ts';
import { HttpError } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { hashSecret } from '../tokens/secrets.ts';
import { boardAccess, requireOwner } from './board-access.ts';
import { boardPinsPage } from './board-pins.ts';

// Secret read-only links to a board (docs/board-sharing.md, "Links"). Like a personal access
// token, a link's secret is shown once, to the owner who made it, and only its sha256 is stored:
// a copy of the database opens no board. Every read looks the hash up (one unique-index probe) and
// nothing is cached per instance, so a revoke is refused by every instance the moment its DELETE
// has committed.

/** 32 random bytes as base64url: 43 URL-safe characters (256 bits: nothing to guess). */
function newLinkSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Unknown, malformed, revoked, or its board deleted: one answer, so a secret cannot be probed. */
const linkNotFound = () => new HttpError(404, BOARD_LINK_MSG.notFound);

const toBoardLink = (row: { id: number; created_at: Date; hint: string }): BoardLink => ({
  id: row.id,
  createdAt: row.created_at.toISOString(),
  hint: row.hint,
});

/** The owner makes a link (members 403, anyone else 404); its address is in the answer and nowhere else. */
export async function createBoardLink(db: Kysely<DB>, userId: number, boardId: number): Promise<BoardLinkCreated> {
  const secret = newLinkSecret();
  const row = await db.transaction().execute(async (trx) => {
    // The board's row lock orders concurrent creates, so the cap holds under a race.
    requireOwner(await boardAccess(trx, userId, boardId, { lock: true }));
    const { held } = await trx
      .selectFrom('board_links')
      .select(sql<number>`count(*)::int`.as('held'))
      .where('board_id', '=', boardId)
      .executeTakeFirstOrThrow();
    if (held >= BOARD_LINK_RULES.perBoard) throw new HttpError(409, BOARD_LINK_MSG.tooMany);
    return trx
      .insertInto('board_links')
      .values({ board_id: boardId, secret_hash: hashSecret(secret), hint: secret.slice(-4) })
      .returning(['id', 'created_at', 'hint'])
      .executeTakeFirstOrThrow();
  });
  return { link: { ...toBoardLink(row), url: `${BOARD_LINK_RULES.pathPrefix}${secret}` } };
}

/** The board's links, newest first (at most BOARD_LINK_RULES.perBoard: no paging needed). Owner only. */
export async function listBoardLinks(db: Kysely<DB>, userId: number, boardId: number): Promise<BoardLink[]> {
  requireOwner(await boardAccess(db, userId, boardId));
  const rows = await db.selectFrom('board_links').select(['id', 'created_at', 'hint']).where('board_id', '=', boardId).orderBy('id', 'desc').execute();
  return rows.map(toBoardLink);
}

/** Revokes one of the board's links (owner only); 404 for a link of another board or none. */
export async function revokeBoardLink(db: Kysely<DB>, userId: number, boardId: number, linkId: number): Promise<void> {
  requireOwner(await boardAccess(db, userId, boardId));
  const row = await db.deleteFrom('board_links').where('id', '=', linkId).where('board_id', '=', boardId).returning('id').executeTakeFirst();
  if (!row) throw new HttpError(404, 'Link not found.');
}

/**
 * GET /api/links/{secret}: the board and one page of all its pins (private ones too: the owner
 * chose to show the board to whoever holds the link), to anyone, signed in or not.
 */
export async function readLinkedBoard(db: Kysely<DB>, cursors: CursorCodec, secret: string, query: PageParams): Promise<LinkedBoardPage> {
  if (!BOARD_LINK_RULES.secretPattern.test(secret)) throw linkNotFound();
  const found = await db
    .selectFrom('board_links')
    .innerJoin('boards', 'boards.id', 'board_links.board_id')
    .select(['board_links.id as link_id', 'boards.id', 'boards.name', 'boards.pin_count'])
    .where('board_links.secret_hash', '=', hashSecret(secret))
    .executeTakeFirst();
  if (!found) throw linkNotFound();
  const page = await boardPinsPage(db, cursors, `link:${found.link_id}`, found.id, 'all', query);
  return { board: { id: found.id, name: found.name, pin_count: found.pin_count }, ...page };
}
