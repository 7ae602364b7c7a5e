import { z } from 'zod';
import type { Board, BoardMember, BoardPin } from './boards.ts';
import type { Comment } from './comments.ts';
import type { Favorite } from './favorites.ts';
import type { ImportProgress } from './imports.ts';
import { idField } from './fields.ts';
import { LIMITS } from './limits.ts';
import type { Pin } from './pins.ts';
import type { PresenceTarget, PresentUser } from './presence.ts';

// The real-time contract (docs/realtime.md): one typed event map for server and client. Payloads carry the
// same shapes as the REST answers.

// Every event that is a change carries `seq`, its number in the change log (docs/change-log.md): the
// client applies each seq at most once and, after a reconnect, asks GET /api/changes?since=N for
// what it missed (contract/changes.ts). `session:ended` and `changes:head` are not changes.

export interface ServerToClientEvents {
  // room `feed` (every socket)
  'pin:created': (payload: { pin: Pin; seq: number }) => void;
  'pin:updated': (payload: { pin: Pin; seq: number }) => void;
  'pin:deleted': (payload: { pinId: number; seq: number }) => void;
  // room `pin:<id>` (joined with pins:watch)
  /** `version` grows with every change of the count: keep the count of the highest version seen. */
  'pin:likes': (payload: { pinId: number; likesCount: number; version: number; seq: number }) => void;
  'comment:created': (payload: { comment: Comment; seq: number }) => void;
  'comment:updated': (payload: { comment: Comment; seq: number }) => void;
  'comment:deleted': (payload: { commentId: number; pinId: number; seq: number }) => void;
  // room `user:<id>` (every socket of a signed-in user)
  'favorite:added': (payload: { favorite: Favorite; seq: number }) => void;
  'favorite:removed': (payload: { favoriteId: number; pinId: number; seq: number }) => void;
  // Board events go to every member's `user:<id>` room (owner and collaborators, as of the change);
  // a board's `role` is the recipient's own. `seq` is the change-log number (docs/change-log.md).
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
  /**
   * The newest seq of the change log, sent to the socket when it connects, by its instance after
   * that instance's Redis adapter reconnects (room events of other instances may have been lost
   * meanwhile), and now and then while the log moves. A client whose complete-through cursor is
   * behind it asks GET /api/changes for the rest (a "poke", then a pull).
   */
  'changes:head': (payload: { seq: number }) => void;
  // Presence (contract/presence.ts): room `pin:<id>` and the pin's presence subscribers; a board's
  // present members
  presence: (payload: { pinId: number; viewers: number }) => void;
  'board:presence': (payload: { boardId: number; users: PresentUser[] }) => void;
  /** room `user:<id>`: an import's counts (docs/import-export.md), at most once a second per import. Not a change. */
  'import:progress': (payload: ImportProgress) => void;
}

export type WatchAck = { ok: true } | { ok: false; error: string };

export interface ClientToServerEvents {
  'pins:watch': (payload: { pinIds: number[] }, ack: (answer: WatchAck) => void) => void;
  'pins:unwatch': (payload: { pinIds: number[] }, ack: (answer: WatchAck) => void) => void;
  'presence:join': (payload: PresenceTarget, ack: (answer: WatchAck) => void) => void;
  'presence:leave': (payload: PresenceTarget, ack: (answer: WatchAck) => void) => void;
}

export const WatchPayload = z.object({
  pinIds: z.array(idField('pinIds'), { error: 'pinIds must be a list of pin ids.' }).max(LIMITS.watchIds, { error: `At most ${LIMITS.watchIds} pins can be watched at once.` }),
});

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

/** The events the change log numbers: every server event but the ones that are not changes. */
export type ChangeEventName = Exclude<ServerEventName, 'session:ended' | 'changes:head' | 'presence' | 'board:presence' | 'import:progress'>;
/** A change's payload as the log keeps it (and GET /api/changes answers it): without its `seq`. */
export type ChangeData<E extends ChangeEventName> = E extends ChangeEventName ? Omit<ServerEventPayload<E>, 'seq'> : never;
