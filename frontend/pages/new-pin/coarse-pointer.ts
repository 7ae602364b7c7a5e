// Whether the main pointer is a finger (docs/grid.md's touch screens): the New Pin form then offers
// to choose a photo, not to drop or paste one, which a phone cannot do.
import { useSyncExternalStore } from 'react';

const QUERY = '(pointer: coarse)';

function media(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
}

function subscribe(changed: () => void): () => void {
  const list = media();
  list?.addEventListener('change', changed);
  return () => list?.removeEventListener('change', changed);
}

export function useCoarsePointer(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches ?? false);
}
