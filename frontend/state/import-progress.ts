import { atom } from 'jotai';
import type { ImportProgress } from '../../contract/imports.ts';
import type { Store } from './store.ts';

/** The latest `import:progress` of each import this tab has heard of (the import page shows them live). */
export const importProgressAtom = atom<ReadonlyMap<number, ImportProgress>>(new Map());

export function setImportProgress(store: Store, progress: ImportProgress): void {
  store.set(importProgressAtom, (prev) => new Map(prev).set(progress.importId, progress));
}
