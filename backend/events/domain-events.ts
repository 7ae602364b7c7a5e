import type { Board, BoardMember, BoardPin } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';

/**
 * What the services announce after a write has committed. The real-time relay maps these to rooms
 * and socket events; nothing else in the server needs to know sockets exist. Payloads carry the
 * same shapes as the REST answers.
 */
export interface DomainEvents {
  'pin.created': { pin: Pin };
  'pin.updated': { pin: Pin };
  'pin.deleted': { pinId: number; ownerId: number };
  'pin.likes': { pinId: number; likesCount: number; version: number };
  'favorite.added': { userId: number; favorite: Favorite };
  'favorite.removed': { userId: number; favoriteId: number; pinId: number };
  // Board events carry `memberIds`: who was on the board (owner and collaborators) as of the
  // change, read in its transaction; the relay emits to each of them.
  'board.created': { board: Board; seq: number };
  'board.updated': { board: Board; memberIds: number[]; seq: number };
  'board.deleted': { boardId: number; memberIds: number[]; seq: number };
  'board.pin-added': { boardId: number; pin: BoardPin; pinCount: number; memberIds: number[]; seq: number };
  'board.pin-removed': { boardId: number; pinId: number; pinCount: number; memberIds: number[]; seq: number };
  /** `memberIds` includes the new member. */
  'board.member-added': { boardId: number; member: BoardMember; board: Board; memberIds: number[]; seq: number };
  /** `memberIds`: the remaining members and the removed user. */
  'board.member-removed': { boardId: number; userId: number; memberIds: number[]; seq: number };
  'comment.created': { comment: Comment };
  'comment.updated': { comment: Comment };
  'comment.deleted': { commentId: number; pinId: number };
  'session.ended': { userId: number; sessionId: string };
}
