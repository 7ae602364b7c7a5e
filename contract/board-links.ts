import { z } from 'zod';
import { BoardPin } from './boards.ts';
import { isoTimestamp } from './fields.ts';
import { NextCursor } from './paging.ts';

// Secret read-only links to a board (docs/board-sharing.md, "Links"): whoever holds one reads the
// board and all its pins, signed in or not, until the owner revokes it.

/**
 * A link as the owner's list shows it: never its secret (only a hash is kept), but its last 4
 * characters (`hint`), so the owner can tell which link is which.
 */
export const BoardLink = z.object({ id: z.number().int(), createdAt: isoTimestamp, hint: z.string() }).meta({ id: 'BoardLink' });
export type BoardLink = z.infer<typeof BoardLink>;

/** POST /api/boards/{id}/links: the one time the link's address (`/b/<secret>`) is shown. */
export const BoardLinkCreated = z.object({ link: BoardLink.extend({ url: z.string() }).meta({ id: 'BoardLinkWithUrl' }) }).meta({ id: 'BoardLinkCreated' });
export type BoardLinkCreated = z.infer<typeof BoardLinkCreated>;

/** GET /api/boards/{id}/links: newest first, at most BOARD_LINK_RULES.perBoard. */
export const BoardLinkList = z.object({ links: z.array(BoardLink) }).meta({ id: 'BoardLinkList' });
export type BoardLinkList = z.infer<typeof BoardLinkList>;

export const BoardLinkRevoked = z.object({ message: z.string(), board_id: z.number().int(), link_id: z.number().int() }).meta({ id: 'BoardLinkRevoked' });
export type BoardLinkRevoked = z.infer<typeof BoardLinkRevoked>;

/** GET /api/links/{secret}: the board as a link shows it (no members, no role) and one page of its pins. */
export const LinkedBoardPage = z
  .object({
    board: z.object({ id: z.number().int(), name: z.string(), pin_count: z.number().int() }).meta({ id: 'LinkedBoard' }),
    pins: z.array(BoardPin),
    nextCursor: NextCursor,
  })
  .meta({ id: 'LinkedBoardPage' });
export type LinkedBoardPage = z.infer<typeof LinkedBoardPage>;
