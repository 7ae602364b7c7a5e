// React side of the live client: screens say which pins they show; nothing happens when no live
// client feeds the store (component tests).
import { useStore } from 'jotai';
import { useCallback, useEffect, type RefCallback } from 'react';
import { liveClientFor } from './client.ts';

/** Watches these pins while the component is mounted (reference-counted with other screens). */
export function useWatchPins(pinIds: readonly number[]): void {
  const client = liveClientFor(useStore());
  const key = pinIds.join(',');
  useEffect(() => {
    if (!client || !key) return;
    return client.watchPins(key.split(',').map(Number));
  }, [client, key]);
}

/** A ref for a grid card: its pin is watched while the card is on (or near) the screen. */
export function useWatchCard<T extends Element>(pinId: number): RefCallback<T> {
  const client = liveClientFor(useStore());
  return useCallback(
    (element: T | null) => {
      if (!client || !element) return;
      return client.observeCard(element, pinId);
    },
    [client, pinId],
  );
}
