// What a deferred delete hides until it is sent or undone (./deferred-deletes.ts). The lists read
// these views of the by-id atoms, so a hidden pin or board leaves every list at once and comes back
// in its place on Undo; nothing is removed from the store until the server has deleted it. While
// nothing is hidden, each view is its atom's own object (no copy).
import { atom } from 'jotai';
import { boardPinsByIdAtom, boardsByIdAtom, type ById, favoritesByIdAtom, pinsByIdAtom } from './atoms.ts';

export const hiddenPinIdsAtom = atom<ReadonlySet<number>>(new Set<number>());
export const hiddenBoardIdsAtom = atom<ReadonlySet<number>>(new Set<number>());

function withoutKeys<T>(byId: ById<T>, hidden: ReadonlySet<number>): ById<T> {
  if (![...hidden].some((id) => id in byId)) return byId;
  const next = { ...byId };
  for (const id of hidden) delete next[id];
  return next;
}

export const visiblePinsByIdAtom = atom((get) => withoutKeys(get(pinsByIdAtom), get(hiddenPinIdsAtom)));
/** Board pins are kept by pin id. */
export const visibleBoardPinsByIdAtom = atom((get) => withoutKeys(get(boardPinsByIdAtom), get(hiddenPinIdsAtom)));
export const visibleBoardsByIdAtom = atom((get) => withoutKeys(get(boardsByIdAtom), get(hiddenBoardIdsAtom)));
/** Favorites are kept by their own id; a hidden pin's favorite is hidden with it. */
export const visibleFavoritesByIdAtom = atom((get) => {
  const all = get(favoritesByIdAtom);
  const hidden = get(hiddenPinIdsAtom);
  if (!hidden.size) return all;
  return withoutKeys(
    all,
    new Set(
      Object.values(all)
        .filter((favorite) => hidden.has(favorite.pin_id))
        .map((favorite) => favorite.id),
    ),
  );
});

export function setHidden(set: ReadonlySet<number>, id: number, hidden: boolean): ReadonlySet<number> {
  if (set.has(id) === hidden) return set;
  const next = new Set(set);
  if (hidden) next.add(id);
  else next.delete(id);
  return next;
}
