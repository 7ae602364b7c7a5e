// No zod here: the web client imports these texts, and zod would weigh on its first script
// (the socket payload's schema is presence-schema.ts).

// Presence (docs/presence.md): who is looking at a pin or a board right now.
//
// client → `presence:join` / `presence:leave` with `{pinId}` or `{boardId}`, acked like `pins:watch`.
// server → `presence {pinId, viewers}` to everyone joined to or watching the pin: signed-in users
//          counted once however many tabs, each anonymous socket once;
//          `board:presence {boardId, users}` to the board's members joined to it: the signed-in
//          members here now (only members may join a board's presence; anonymous sockets cannot).
// Joining sends the current state to the joining socket at once; later changes reach everyone
// at most once a second per pin or board. A disconnect leaves everything.

export type PresenceTarget = { pinId: number } | { boardId: number };

/** A present user of a board, as `board:presence` lists them. */
export interface PresentUser {
  id: number;
  username: string;
}

export type PresenceEvent = 'presence:join' | 'presence:leave';

export const PRESENCE_LIMITS = {
  /** Pins and boards one socket may be present on at once (a tab shows one page; a few open in quick succession). */
  targetsPerSocket: 20,
  /** Most users one `board:presence` lists. */
  boardUsers: 100,
} as const;

export const PRESENCE_MESSAGES = {
  invalid: 'Send {pinId} or {boardId}.',
  tooMany: `A connection can be present on at most ${PRESENCE_LIMITS.targetsPerSocket} pins or boards. Leave some first.`,
  boardNotFound: 'Board not found.',
  pinNotFound: 'Pin not found.',
} as const;

/** "1 person viewing", "N people viewing" (the text; singular for one). */
export function viewersText(viewers: number): string {
  return viewers === 1 ? '1 person viewing' : `${viewers} people viewing`;
}
