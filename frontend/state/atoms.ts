// Every entity the client holds, kept by id (docs/product.md §3). Screens read these atoms (or lists derived
// from them), so applying a server event to the store updates every open screen.
import { atom } from 'jotai';
import type { BoardMember, Comment, Pin, User } from '../../contract/index.ts';
import { type BoardRecord, type FavoriteRef, joinBoardPins, joinBoards, joinFavorites, type PinFacts, type PinFactsSource } from './pin-views.ts';

export type ById<T> = Record<number, T>;

// Session
export const sessionUserAtom = atom<User | null>(null);
/** True once the initial session check has finished (the page renders only after it). */
export const sessionCheckedAtom = atom(false);

// Pins (public). The lists that show them (home, your pins) are ordered id arrays (./lists.ts).
export const pinsByIdAtom = atom<ById<Pin>>({});
/**
 * What a card shows of a pin known only through a favorite or a board (its title, image, and like
 * count when a favorite told it), until the pin itself is known: a pin's facts are in one of the
 * two, never both (./pin-facts.ts). Favorites and boards refer to pins by id (./pin-views.ts).
 */
export const pinSummariesByIdAtom = atom<ById<PinFacts>>({});
const pinFactsAtom = atom((get): PinFactsSource => ({ pins: get(pinsByIdAtom), summaries: get(pinSummariesByIdAtom) }));

// Favorites (the signed-in user's): which pin each is of.
export const favoriteRefsAtom = atom<ById<FavoriteRef>>({});
/** The favorites with their pins' facts, as the server sends them. */
export const favoritesByIdAtom = atom((get) => joinFavorites(get(favoriteRefsAtom), get(pinFactsAtom)));
/** True once the newest favorites (page one) were loaded for the hearts. */
export const favoritesLoadedAtom = atom(false);

// Boards (the signed-in user's): each with its pin count and covers (the ≤4 most recently added)
export const boardRecordsAtom = atom<ById<BoardRecord>>({});
/** The boards with their covers' facts, as the server sends them. */
export const boardsByIdAtom = atom((get) => joinBoards(get(boardRecordsAtom), get(pinFactsAtom)));
/** The pins shown in boards (a board's pages): the board pages list their ids. */
export const boardPinIdsAtom = atom<ReadonlySet<number>>(new Set<number>());
/** Those pins with their facts, by pin id. */
export const boardPinsByIdAtom = atom((get) => joinBoardPins(get(boardPinIdsAtom), get(pinFactsAtom)));
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
