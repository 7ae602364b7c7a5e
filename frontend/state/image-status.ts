// Where the owner's pins' images stand (docs/image-repair.md), asked only for a pin of theirs
// without a stored image that is on screen: a card whose image did not load, the pin page, the edit
// form. Kept by pin id; asked again now and then while the import is still under way, and again
// after the owner gave the pin a new image.
import { atom, useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import type { ImageStatus } from '../../contract/image-repair.ts';
import { fetchImageStatus } from '../api/pins.ts';
import type { ById } from './atoms.ts';
import type { Store } from './store.ts';

const statusesAtom = atom<ById<ImageStatus>>({});

/** How often an import under way is asked about again, and for how long at most. */
const POLL_MS = 4000;
const POLL_TIMES = 30;

export function forgetImageStatus(store: Store, pinId: number): void {
  store.set(statusesAtom, (prev) => {
    if (!(pinId in prev)) return prev;
    const next = { ...prev };
    delete next[pinId];
    return next;
  });
}

/** The image status of `pinId`, loaded while `wanted` (the owner's pin, without a stored image). */
export function useImageStatus(pinId: number, wanted: boolean): ImageStatus | undefined {
  const store = useStore();
  const status = useAtomValue(statusesAtom)[pinId];
  useEffect(() => {
    if (!wanted) return;
    let stopped = false;
    let times = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const answer = await fetchImageStatus(pinId);
        if (stopped) return;
        store.set(statusesAtom, (prev) => ({ ...prev, [pinId]: answer }));
        if (answer.status === 'importing' && ++times < POLL_TIMES) timer = setTimeout(() => void ask(), POLL_MS);
      } catch (error) {
        console.error(error);
      }
    };
    const cached = store.get(statusesAtom)[pinId];
    if (!cached || cached.status === 'importing') void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [store, pinId, wanted]);
  return wanted ? status : undefined;
}
