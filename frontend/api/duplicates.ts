import type { DuplicateGroups, Merged, MergeUndone } from '../../contract/duplicates.ts';
import { call } from './endpoint.ts';

// Duplicates among the caller's own pins (docs/duplicates.md).

/** A page of groups of look-alike pins; a page may be empty and still have a next one. */
export function fetchDuplicateGroups(cursor: string | null): Promise<DuplicateGroups> {
  return call('GET /api/duplicates', { query: { cursor } });
}

export function mergePins(keep: number, merge: number[]): Promise<Merged> {
  return call('POST /api/duplicates/merge', { body: { keep, merge } });
}

export function undoMerge(mergeId: number): Promise<MergeUndone> {
  return call('POST /api/duplicates/merge/undo', { body: { mergeId } });
}
