// Every entity the client holds, kept by id (SPEC §3). Screens read these atoms (or lists derived
// from them), so applying a server event to the store updates every open screen.
import { atom } from 'jotai';
import type { Board, BoardMember, BoardPin, Comment, Favorite, Pin, User } from '../../contract/index.ts';

export type ById<T> = Record<number, T>;

// Session
export const sessionUserAtom = atom<User | null>(null);
/** True once the initial session check has finished (the page renders only after it). */
export const sessionCheckedAtom = atom(false);

// Pins (public). The lists that show them (home, your pins) are ordered id arrays (./lists.ts).
export const pinsByIdAtom = atom<ById<Pin>>({});

// Favorites (the signed-in user's)
export const favoritesByIdAtom = atom<ById<Favorite>>({});
/** True once the newest favorites (page one) were loaded for the hearts. */
export const favoritesLoadedAtom = atom(false);

// Boards (the signed-in user's): each with its pin count and covers (the ≤4 most recently added)
export const boardsByIdAtom = atom<ById<Board>>({});
/** The pins shown in boards (a board's pages), by pin id: the board pages list their ids. */
export const boardPinsByIdAtom = atom<ById<BoardPin>>({});
/** A board's full member list (owner first), by board id, once its members dialog loaded it. */
export const boardMembersAtom = atom<ById<BoardMember[]>>({});
/** Boards this tab was removed from while signed in: their open page closes with a notice. */
export const boardsLostAtom = atom<ReadonlySet<number>>(new Set<number>());

// Comments (public), for every pin whose comments were loaded
export const commentsByIdAtom = atom<ById<Comment>>({});

// Live updates (../live/)
/**
 * The live connection as the screens see it:
 * - `idle`: not started (before the session check, or no live client at all, as in component tests);
 * - `connecting`: opening the first socket, or a new one after login/logout;
 * - `connected`: events are arriving;
 * - `paused`: the connection dropped after having worked; the socket is reconnecting.
 */
export const liveStatusAtom = atom<'idle' | 'connecting' | 'connected' | 'paused'>('idle');

/**
 * Pins this tab learned were deleted (a `pin:deleted` event, or gone from a resync). Pin ids are
 * never reused, so the detail page can tell "deleted while you looked" from "never existed", and
 * a late `pin:created`/`pin:updated` cannot bring a deleted pin back.
 */
export const deletedPinIdsAtom = atom<ReadonlySet<number>>(new Set<number>());
