import { useAtomValue, type Atom } from 'jotai';
import { selectAtom } from 'jotai/utils';
import { useMemo } from 'react';
import type { ById } from '../state/atoms.ts';

/** One entity of a by-id atom; the component re-renders only when that entity changes (grid cards). */
export function useEntity<T>(byIdAtom: Atom<ById<T>>, id: number): T | undefined {
  return useAtomValue(useMemo(() => selectAtom(byIdAtom, (byId: ById<T>) => byId[id]), [byIdAtom, id]));
}
