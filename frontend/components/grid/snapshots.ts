// Where a grid's layout is kept while its page is away, so that Back returns to the same cards at
// the same place (docs/paging.md): which ids had which slot, the measured heights (so nothing is
// measured again and the columns come out the same), and the card that was at the viewport's
// centre. Kept per store, for the last few grids only.
import { atom } from 'jotai';
import type { Store } from '../../state/store.ts';
import type { Slots } from './slots.ts';

export interface GridSnapshot {
  slots: Slots;
  columns: number;
  columnWidth: number;
  /** Height of each laid-out slot, in slot order. */
  heights: number[];
  /** The card at the viewport's centre, and its top relative to the viewport's top. */
  anchor: { id: number; offset: number } | null;
  scrollY: number;
  /** The card last focused or clicked: Back gives it the focus again. */
  focus: number | null;
}

const MAX_SNAPSHOTS = 20;
const snapshotsAtom = atom<ReadonlyMap<string, GridSnapshot>>(new Map());

export function saveGridSnapshot(store: Store, key: string, snapshot: GridSnapshot): void {
  store.set(snapshotsAtom, (prev) => {
    const next = new Map(prev);
    next.delete(key);
    next.set(key, snapshot);
    for (const old of next.keys()) {
      if (next.size <= MAX_SNAPSHOTS) break;
      next.delete(old);
    }
    return next;
  });
}

export function readGridSnapshot(store: Store, key: string): GridSnapshot | undefined {
  return store.get(snapshotsAtom).get(key);
}
