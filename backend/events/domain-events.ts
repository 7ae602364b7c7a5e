import type { Board, BoardMember, BoardPin } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { ImportProgress } from '../../contract/imports.ts';
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
  // Board events carry `memberIds`: who was on the board (owner and collaborators) as of the
  // change, read in its transaction; the relay emits to each of them.
  'board.created': Logged<{ board: Board }>;
  'board.updated': Logged<{ board: Board; memberIds: number[] }>;
  'board.deleted': Logged<{ boardId: number; memberIds: number[] }>;
  'board.pin-added': Logged<{ boardId: number; pin: BoardPin; pinCount: number; memberIds: number[] }>;
  'board.pin-removed': Logged<{ boardId: number; pinId: number; pinCount: number; memberIds: number[] }>;
  /** `memberIds` includes the new member. */
  'board.member-added': Logged<{ boardId: number; member: BoardMember; board: Board; memberIds: number[] }>;
  /** `memberIds`: the remaining members and the removed user. */
  'board.member-removed': Logged<{ boardId: number; userId: number; memberIds: number[] }>;
  'comment.created': Logged<{ comment: Comment }>;
  'comment.updated': Logged<{ comment: Comment }>;
  'comment.deleted': Logged<{ commentId: number; pinId: number }>;
  'session.ended': { userId: number; sessionId: string };
  /** Not a change: an import's counts for its user's sockets (not logged, so no `seq`). */
  'import.progress': { userId: number; progress: ImportProgress };
}
