import { z } from 'zod';
import type { Board, BoardMember, BoardPin } from './boards.ts';
import type { Comment } from './comments.ts';
import type { Favorite } from './favorites.ts';
import { idField } from './fields.ts';
import { LIMITS } from './limits.ts';
import type { Pin } from './pins.ts';
import type { PresenceTarget, PresentUser } from './presence.ts';

// The real-time contract (DESIGN §5): one typed event map for server and client. Payloads carry the
// same shapes as the REST answers.

export interface ServerToClientEvents {
  // room `feed` (every socket)
  'pin:created': (payload: { pin: Pin }) => void;
  'pin:updated': (payload: { pin: Pin }) => void;
  'pin:deleted': (payload: { pinId: number }) => void;
  // room `pin:<id>` (joined with pins:watch)
  /** `version` grows with every change of the count: keep the count of the highest version seen. */
  'pin:likes': (payload: { pinId: number; likesCount: number; version: number }) => void;
  'comment:created': (payload: { comment: Comment }) => void;
  'comment:updated': (payload: { comment: Comment }) => void;
  'comment:deleted': (payload: { commentId: number; pinId: number }) => void;
  // room `user:<id>` (every socket of a signed-in user)
  'favorite:added': (payload: { favorite: Favorite }) => void;
  'favorite:removed': (payload: { favoriteId: number; pinId: number }) => void;
  // Board events go to every member's `user:<id>` room (owner and collaborators, as of the change);
  // a board's `role` is the recipient's own. `seq` is the change-log number (DESIGN §12).
  'board:created': (payload: { board: Board; seq: number }) => void;
  'board:updated': (payload: { board: Board; seq: number }) => void;
  'board:deleted': (payload: { boardId: number; seq: number }) => void;
  /** `pinCount` is the board's count as of this change's commit. */
  'board:pin-added': (payload: { boardId: number; pin: BoardPin; pinCount: number; seq: number }) => void;
  'board:pin-removed': (payload: { boardId: number; pinId: number; pinCount: number; seq: number }) => void;
  /** To every member, the new one included (so the board appears in their list): `board` as of the change. */
  'board:member-added': (payload: { boardId: number; member: BoardMember; board: Board; seq: number }) => void;
  /** To the remaining members and to the removed user (whose open board page closes). */
  'board:member-removed': (payload: { boardId: number; userId: number; seq: number }) => void;
  'session:ended': (payload: Record<string, never>) => void;
  // Presence (contract/presence.ts): room `pin:<id>` and the pin's presence subscribers; a board's
  // present members
  presence: (payload: { pinId: number; viewers: number }) => void;
  'board:presence': (payload: { boardId: number; users: PresentUser[] }) => void;
}

export type WatchAck = { ok: true } | { ok: false; error: string };

export interface ClientToServerEvents {
  'pins:watch': (payload: { pinIds: number[] }, ack: (answer: WatchAck) => void) => void;
  'pins:unwatch': (payload: { pinIds: number[] }, ack: (answer: WatchAck) => void) => void;
  'presence:join': (payload: PresenceTarget, ack: (answer: WatchAck) => void) => void;
  'presence:leave': (payload: PresenceTarget, ack: (answer: WatchAck) => void) => void;
}

export const WatchPayload = z.object({
  pinIds: z
    .array(idField('pinIds'), { error: 'pinIds must be a list of pin ids.' })
    .max(LIMITS.watchIds, { error: `At most ${LIMITS.watchIds} pins can be watched at once.` }),
});

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];
