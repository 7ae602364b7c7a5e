// What the server last said about presence (docs/presence.md): a pin's viewer count, a board's present
// members. Set by the `presence` and `board:presence` events (./apply.ts), read by
// ../components/ViewersCount.tsx and ../components/BoardPresence.tsx.
import { atom } from 'jotai';
import type { PresentUser } from '../../contract/presence.ts';
import type { Store } from '../state/store.ts';

export const pinViewersAtom = atom<ReadonlyMap<number, number>>(new Map<number, number>());
export const boardPresenceAtom = atom<ReadonlyMap<number, readonly PresentUser[]>>(new Map<number, readonly PresentUser[]>());

export function setPinViewers(store: Store, pinId: number, viewers: number): void {
  if (!Number.isSafeInteger(viewers) || viewers < 0) return;
  if (store.get(pinViewersAtom).get(pinId) === viewers) return;
  store.set(pinViewersAtom, (map) => new Map(map).set(pinId, viewers));
}

export function setBoardPresence(store: Store, boardId: number, users: readonly PresentUser[]): void {
  if (!Array.isArray(users)) return;
  store.set(boardPresenceAtom, (map) => new Map(map).set(boardId, users));
}

/** A screen stopped showing it: a later visit must not show an old figure before the server answers. */
export function forgetPresence(store: Store, target: { pinId: number } | { boardId: number }): void {
  if ('pinId' in target) {
    store.set(pinViewersAtom, (map) => {
      const next = new Map(map);
      next.delete(target.pinId);
      return next;
    });
  } else {
    store.set(boardPresenceAtom, (map) => {
      const next = new Map(map);
      next.delete(target.boardId);
      return next;
    });
  }
}
