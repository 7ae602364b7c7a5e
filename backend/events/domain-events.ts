import type { Board, BoardPin } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';

/**
 * What the services announce after a write has committed. The real-time relay maps these to rooms
 * and socket events; nothing else in the server needs to know sockets exist. Payloads carry the
 * same shapes as the REST answers, and every change its log `seq`.
 */
/**
 * A change the log numbered (backend/changes/change-log.ts): its `seq` travels with the domain
 * event, and the relay passes it on in the socket event.
 */
export type Logged<T> = T & { seq: number };

export interface DomainEvents {
  'pin.created': Logged<{ pin: Pin }>;
  'pin.updated': Logged<{ pin: Pin }>;
  'pin.deleted': Logged<{ pinId: number; ownerId: number }>;
  'pin.likes': Logged<{ pinId: number; likesCount: number; version: number }>;
  'favorite.added': Logged<{ userId: number; favorite: Favorite }>;
  'favorite.removed': Logged<{ userId: number; favoriteId: number; pinId: number }>;
  'board.created': Logged<{ board: Board }>;
  'board.updated': Logged<{ board: Board }>;
  'board.deleted': Logged<{ userId: number; boardId: number }>;
  'board.pin-added': Logged<{ userId: number; boardId: number; pin: BoardPin; pinCount: number }>;
  'board.pin-removed': Logged<{ userId: number; boardId: number; pinId: number; pinCount: number }>;
  'comment.created': Logged<{ comment: Comment }>;
  'comment.updated': Logged<{ comment: Comment }>;
  'comment.deleted': Logged<{ commentId: number; pinId: number }>;
  'session.ended': { userId: number; sessionId: string };
}
