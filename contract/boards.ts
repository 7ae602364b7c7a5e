import { z } from 'zod';
import { requiredText } from './fields.ts';
import { PinImage } from './images.ts';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { NextCursor } from './paging.ts';
import { hasHiddenCharacters } from './visible-text.ts';
import { PIN_VISIBILITIES } from './visibility.ts';

export const BoardPin = z
  .object({
    id: z.number().int(),
    title: z.string(),
    image_url: z.string(),
    image: PinImage.nullable(),
    /**
     * Who sees the pin (docs/who-sees-what.md): a board's grid marks private ones with a lock. The
     * server always says; the client's own copies made from a pin it holds may not (absent: public).
     */
    visibility: z.enum(PIN_VISIBILITIES).optional(),
  })
  .meta({ id: 'BoardPin' });
export type BoardPin = z.infer<typeof BoardPin>;

/** The reader's place on a board (docs/board-sharing.md): its owner (`user_id`) or a collaborator. */
export const BoardRole = z.enum(['owner', 'collaborator']).meta({ id: 'BoardRole' });
export type BoardRole = z.infer<typeof BoardRole>;

/**
 * Who may read a board (docs/board-sharing.md): `private`, its members only; `public`, anyone too
 * (read-only), and it is listed on its owner's profile.
 */
export const BoardVisibility = z.enum(['private', 'public']).meta({ id: 'BoardVisibility' });
export type BoardVisibility = z.infer<typeof BoardVisibility>;

/** The reader's place on a board they can read: a member's role, or `viewer` (a public board's outsider: read-only). */
export const BoardReaderRole = z.enum(['owner', 'collaborator', 'viewer']).meta({ id: 'BoardReaderRole' });
export type BoardReaderRole = z.infer<typeof BoardReaderRole>;

/** Someone on a board, as avatars show them. */
export const BoardMemberSummary = z.object({ id: z.number().int(), username: z.string() }).meta({ id: 'BoardMemberSummary' });
export type BoardMemberSummary = z.infer<typeof BoardMemberSummary>;

/**
 * A board with its pin count and some of its pins, most recently added first: in the boards list
 * and in live events, the covers (at most LIMITS.boardCovers); from GET /api/boards/{id}, a page.
 * `role` is the reader's own (it differs per reader: the server sets it for each recipient;
 * `viewer` for someone who reads a public board without being a member);
 * `members` are the first LIMITS.boardMemberAvatars members, owner first, for avatars, and
 * `member_count` counts them all (owner included).
 */
export const Board = z
  .object({
    id: z.number().int(),
    name: z.string(),
    user_id: z.number().int(),
    pin_count: z.number().int(),
    pins: z.array(BoardPin),
    role: BoardReaderRole,
    visibility: BoardVisibility,
    members: z.array(BoardMemberSummary),
    member_count: z.number().int(),
  })
  .meta({ id: 'Board' });
export type Board = z.infer<typeof Board>;

/** GET /api/boards/{id}: the board and one page of its pins; the next page comes with `cursor`. */
export const BoardPage = Board.extend({ nextCursor: NextCursor }).meta({ id: 'BoardPage' });
export type BoardPage = z.infer<typeof BoardPage>;

/** Newest first, paged. */
export const BoardList = z.object({ boards: z.array(Board), nextCursor: NextCursor }).meta({ id: 'BoardList' });
export type BoardList = z.infer<typeof BoardList>;

/** A board's name: required, bounded, and free of characters a reader cannot see (contract/visible-text.ts). */
export const BoardBody = z
  .object({
    name: requiredText(MSG.boardNameRequired, LIMITS.boardName, 'Board name').refine((name) => !hasHiddenCharacters(name), { error: MSG.boardNameHidden }),
  })
  .meta({ id: 'BoardBody' });

/**
 * PATCH /api/boards/{id}: the owner renames the board, changes who may read it, or both; at least
 * one of the two. A name follows BoardBody's rules.
 */
export const BoardUpdateBody = z
  .object({ name: BoardBody.shape.name.optional(), visibility: BoardVisibility.optional() })
  // Neither: a rename without a name, answered by the product's rule for blank names (docs/product.md §5).
  .refine((body) => body.name !== undefined || body.visibility !== undefined, { error: MSG.boardNameRequired, path: ['name'] })
  .meta({ id: 'BoardUpdateBody' });

export const BoardDeleted = z.object({ message: z.string(), id: z.number().int() }).meta({ id: 'BoardDeleted' });
export type BoardDeleted = z.infer<typeof BoardDeleted>;

export const BoardPinRemoved = z.object({ message: z.string(), board_id: z.number().int(), pin_id: z.number().int() }).meta({ id: 'BoardPinRemoved' });
export type BoardPinRemoved = z.infer<typeof BoardPinRemoved>;

/**
 * A board's owner or collaborator in GET /api/boards/{id}/members and the `board:member-added`
 * event: `added_by` is who added them (null for the owner, and for members added before it was
 * recorded), so an invitee can tell who put them there and leave or block them.
 */
export const BoardMember = BoardMemberSummary.extend({
  role: BoardRole,
  // Spelled out rather than BoardMemberSummary.nullable(): a nullable reference to a named schema
  // comes out of the OpenAPI generator as one that refuses null.
  added_by: z.object({ id: z.number().int(), username: z.string() }).nullable(),
}).meta({ id: 'BoardMember' });
export type BoardMember = z.infer<typeof BoardMember>;

/** GET /api/boards/{id}/members: the owner first, then collaborators in the order they were added. */
export const BoardMembers = z.object({ members: z.array(BoardMember) }).meta({ id: 'BoardMembers' });
export type BoardMembers = z.infer<typeof BoardMembers>;

/** POST /api/boards/{id}/members: invite a user by username (matched case-insensitively). */
export const AddMemberBody = z.object({ username: requiredText(MSG.usernameRequired, LIMITS.usernameMax, 'Username') }).meta({ id: 'AddMemberBody' });

export const BoardMemberRemoved = z.object({ message: z.string(), board_id: z.number().int(), user_id: z.number().int() }).meta({ id: 'BoardMemberRemoved' });
export type BoardMemberRemoved = z.infer<typeof BoardMemberRemoved>;

/** The same board as another member sees it: only `role` depends on who reads (events go to members only). */
export function boardForReader<T extends Pick<Board, 'user_id' | 'role'>>(board: T, readerId: number): T {
  const role: BoardReaderRole = board.user_id === readerId ? 'owner' : 'collaborator';
  return board.role === role ? board : { ...board, role };
}
