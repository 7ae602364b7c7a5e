import { atom } from 'jotai';
import type { Favorite, FavoriteRemoved } from '../../contract/index.ts';
import { MSG } from '../../contract/messages.ts';
import { myOutboxEntriesAtom, waitingEntriesAtom } from '../outbox/atoms.ts';
import { type OutboxEntry, type OutboxSubject, refusalWords } from '../outbox/entry.ts';
import { cancelWrite, type OutboxHandlers, queueWrite } from '../outbox/outbox.ts';
import { favoriteRefsAtom, pinsByIdAtom, pinSummariesByIdAtom, sessionUserAtom } from './atoms.ts';
import { without } from './byId.ts';
import { LIST, updateList, withFirst } from './lists.ts';
import { recordPinFacts } from './pin-facts.ts';
import { setPinLikes } from './pins.ts';
import type { Store } from './store.ts';
import { markNextToastWaiting, retryAction, showToast } from './toasts.ts';

/** pin id → favorite id, for the heart toggles. */
export const favoriteIdByPinAtom = atom((get) => {
  const out: Record<number, number> = {};
  for (const fav of Object.values(get(favoriteRefsAtom))) out[fav.pin_id] = fav.id;
  return out;
});

/**
 * Stores favorites (a page, or one): one favorite per pin; what each shows is its pin's (./pins.ts).
 * Their like counts go through the one versioned writer of a count (setPinLikes), so a favorite
 * told late cannot put back a count older than one `pin:likes` already gave.
 */
export function upsertFavorites(store: Store, favorites: readonly Favorite[]): void {
  if (!favorites.length) return;
  recordPinFacts(
    store,
    favorites.map((f) => ({ id: f.pin_id, title: f.title, image_url: f.image_url, image: f.image })),
  );
  for (const f of favorites) setPinLikes(store, f.pin_id, f.likes_count, f.likes_version);
  store.set(favoriteRefsAtom, (prev) => {
    const next = { ...prev };
    const byPin = new Map(Object.values(prev).map((f) => [f.pin_id, f.id]));
    for (const { id, pin_id } of favorites) {
      // One favorite per pin: drop another id for the same pin, if any.
      const other = byPin.get(pin_id);
      if (other !== undefined && other !== id) delete next[other];
      byPin.set(pin_id, id);
      // The same reference is kept as it is (its view stays the same object).
      if (next[id]?.pin_id !== pin_id) next[id] = { id, pin_id };
    }
    return next;
  });
}

export function upsertFavorite(store: Store, favorite: Favorite): void {
  upsertFavorites(store, [favorite]);
}

/** A favorite just added (event or REST answer): stored, and first in the favorites list. */
export function addFavorite(store: Store, favorite: Favorite): void {
  upsertFavorite(store, favorite);
  const userId = store.get(sessionUserAtom)?.id;
  if (userId !== undefined) updateList(store, LIST.favorites(userId), (list) => withFirst(list, favorite.id));
}

/** Removes a favorite by its own id. Pass the `count` when the server told the new one (and its version). */
export function removeFavorite(store: Store, favoriteId: number, pinId?: number, count?: { likes_count: number; likes_version: number }): void {
  const fav = store.get(favoriteRefsAtom)[favoriteId];
  store.set(favoriteRefsAtom, (prev) => without(prev, favoriteId));
  const targetPin = pinId ?? fav?.pin_id;
  if (targetPin !== undefined && count !== undefined) setPinLikes(store, targetPin, count.likes_count, count.likes_version);
}

/**
 * The newest page of favorites from the server (the hearts' view): stored, and any favorite this
 * tab holds within the range that page covers but that the page lacks is gone (removed elsewhere).
 * Favorites are listed newest first, so the range is "newer than the page's oldest", or all of
 * them when the page is the last.
 */
export function setNewestFavorites(store: Store, favorites: readonly Favorite[], nextCursor: string | null): void {
  const listed = new Set(favorites.map((f) => f.id));
  const oldest = Math.min(...favorites.map((f) => f.id));
  for (const fav of Object.values(store.get(favoriteRefsAtom))) {
    if (!listed.has(fav.id) && (nextCursor === null || fav.id > oldest)) removeFavorite(store, fav.id);
  }
  upsertFavorites(store, favorites);
}

// Favoriting through the outbox (docs/outbox.md). A favorite's id is known only once the server
// has answered, so an unfavorite of a favorite still waiting takes that favorite back out of the
// outbox instead of sending anything; a favorite of a pin whose unfavorite waits does the same.

type FavoriteEntry = OutboxEntry<Extract<OutboxSubject, { kind: 'favorite' }>>;
type UnfavoriteEntry = OutboxEntry<Extract<OutboxSubject, { kind: 'unfavorite' }>>;

/** A pin's heart as the outbox leaves it: favorited or not by a write still waiting, and whether it shows as waiting. */
export interface PendingHeart {
  favorited: boolean;
  key: string;
  waiting: boolean;
}

/** pin id → the newest favorite or unfavorite of it still in the outbox. */
export const pendingHeartsAtom = atom((get) => {
  const waiting = new Set(get(waitingEntriesAtom).map((entry) => entry.key));
  const out: Record<number, PendingHeart> = {};
  for (const entry of get(myOutboxEntriesAtom)) {
    const { subject } = entry;
    if (subject.kind === 'favorite' || subject.kind === 'unfavorite') out[subject.pinId] = { favorited: subject.kind === 'favorite', key: entry.key, waiting: waiting.has(entry.key) };
  }
  return out;
});

function pinTitle(store: Store, pinId: number): string {
  return store.get(pinsByIdAtom)[pinId]?.title ?? store.get(pinSummariesByIdAtom)[pinId]?.title ?? 'this pin';
}

/** Favorites the pin: 'added', or 'unchanged' when the server refused it (its toast says so) or had it already. */
export async function favoritePin(store: Store, pinId: number): Promise<'added' | 'unchanged'> {
  const userId = store.get(sessionUserAtom)?.id;
  if (userId === undefined) return 'unchanged';
  const pending = store.get(pendingHeartsAtom)[pinId];
  if (pending && !pending.favorited && (await cancelWrite(store, pending.key))) return 'added';
  const outcome = await queueWrite(store, { userId, label: pinTitle(store, pinId), subject: { kind: 'favorite', pinId } });
  if (outcome.status === 'waiting') markNextToastWaiting(store);
  if (outcome.status === 'refused' || outcome.status === 'cancelled') return 'unchanged';
  return outcome.status === 'sent' && !isFavorite(outcome.answer) ? 'unchanged' : 'added';
}

/** Unfavorites the pin: 'removed', or 'unchanged' when there was nothing to remove or the server refused. */
export async function unfavoritePin(store: Store, pinId: number): Promise<'removed' | 'unchanged'> {
  const userId = store.get(sessionUserAtom)?.id;
  if (userId === undefined) return 'unchanged';
  const pending = store.get(pendingHeartsAtom)[pinId];
  if (pending?.favorited && (await cancelWrite(store, pending.key))) return 'removed';
  // Sent meanwhile, if it was waiting: its answer has brought the favorite's id.
  const favoriteId = store.get(favoriteIdByPinAtom)[pinId];
  if (favoriteId === undefined) return 'unchanged';
  const outcome = await queueWrite(store, { userId, label: pinTitle(store, pinId), subject: { kind: 'unfavorite', pinId, favoriteId } });
  if (outcome.status === 'waiting') markNextToastWaiting(store);
  return outcome.status === 'refused' || outcome.status === 'cancelled' ? 'unchanged' : 'removed';
}

function isFavorite(answer: unknown): answer is Favorite {
  return typeof answer === 'object' && answer !== null && typeof (answer as { id?: unknown }).id === 'number' && typeof (answer as { pin_id?: unknown }).pin_id === 'number';
}

function isRemoval(answer: unknown): answer is FavoriteRemoved {
  return typeof answer === 'object' && answer !== null && typeof (answer as { likes_count?: unknown }).likes_count === 'number';
}

/** What the outbox does for favorites on screen (Layout hands these to startOutbox). */
export const favoriteOutbox: Pick<OutboxHandlers, 'favorite' | 'unfavorite'> = {
  favorite: {
    // "Already favorited" brings no id: the heart follows the favorites' next load, as before;
    // any other answer is logged (docs/product.md §8).
    sent: (store, _entry: FavoriteEntry, answer) => {
      if (isFavorite(answer)) addFavorite(store, answer);
      else if ((answer as { message?: unknown } | undefined)?.message !== MSG.alreadyFavorited) console.error('Failed to favorite pin');
    },
    refused: (store, entry, refusal) => {
      showToast(store, refusalWords(MSG.favoriteRefused, refusal), { action: retryAction(() => favoritePin(store, entry.subject.pinId)) });
    },
  },
  unfavorite: {
    sent: (store, entry: UnfavoriteEntry, answer) => {
      removeFavorite(store, entry.subject.favoriteId, entry.subject.pinId, isRemoval(answer) ? answer : undefined);
    },
    refused: (store, entry, refusal) => {
      // Gone already (removed in another tab): what was asked for.
      if (refusal.reason === 'refused' && refusal.error.status === 404) return removeFavorite(store, entry.subject.favoriteId);
      showToast(store, refusalWords(MSG.unfavoriteRefused, refusal), { action: retryAction(() => unfavoritePin(store, entry.subject.pinId)) });
    },
  },
};
