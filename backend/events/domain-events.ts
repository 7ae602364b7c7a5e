import type { Board, BoardPin } from '../../contract/boards.ts';
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
  'board.created': { board: Board };
  'board.updated': { board: Board };
  'board.deleted': { userId: number; boardId: number };
  'board.pin-added': { userId: number; boardId: number; pin: BoardPin; pinCount: number };
  'board.pin-removed': { userId: number; boardId: number; pinId: number; pinCount: number };
  'comment.created': { comment: Comment };
  'comment.updated': { comment: Comment };
  'comment.deleted': { commentId: number; pinId: number };
  'session.ended': { userId: number; sessionId: string };
}
