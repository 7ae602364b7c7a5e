import type { DuplicateGroups, Merged, MergeUndone, PictureChecked } from '../../contract/duplicates.ts';
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

/**
 * The caller's pins of the picture at `url` (this site's upload or another site's picture), checked
 * without storing it, so a pin made from an address warns as an upload does.
 */
export function checkPicture(url: string): Promise<PictureChecked> {
  return call('GET /api/images/duplicates', { query: { url } });
}
