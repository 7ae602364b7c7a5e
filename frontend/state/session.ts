import type { User } from '../../contract/index.ts';
import { boardMembersAtom, boardPinIdsAtom, boardRecordsAtom, boardsLostAtom, favoriteRefsAtom, favoritesLoadedAtom, pinSummariesByIdAtom, sessionCheckedAtom, sessionUserAtom } from './atoms.ts';
import type { Store } from './store.ts';

function clearPrivateData(store: Store): void {
  store.set(favoriteRefsAtom, {});
  store.set(favoritesLoadedAtom, false);
  store.set(boardRecordsAtom, {});
  store.set(boardPinIdsAtom, new Set<number>());
  // Known only through the user's favorites and boards.
  store.set(pinSummariesByIdAtom, {});
  store.set(boardMembersAtom, {});
  store.set(boardsLostAtom, new Set<number>());
}

/** Session present (after a check, login or signup). Another user's private data is dropped. */
export function setSessionUser(store: Store, user: User): void {
  const current = store.get(sessionUserAtom);
  if (current?.id !== user.id) clearPrivateData(store);
  store.set(sessionUserAtom, user);
  store.set(sessionCheckedAtom, true);
}

/** Session absent (after logout, a failed or empty check, or `session:ended`). */
export function clearSession(store: Store): void {
  clearPrivateData(store);
  store.set(sessionUserAtom, null);
  store.set(sessionCheckedAtom, true);
}

/** "Hello, {first name or username}" */
export function displayName(user: User): string {
  return user.firstName?.trim() || user.username;
}
