import { atom } from 'jotai';
import type { Comment } from '../../contract/index.ts';
import { commentsByIdAtom } from './atoms.ts';
import { isStale, without } from './byId.ts';
import type { Store } from './store.ts';

function newestFirst(a: Comment, b: Comment): number {
  return Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;
}

/** A derived atom with one pin's comments, newest first. Create it once per pin (useMemo). */
export function commentsForPinAtom(pinId: number) {
  return atom((get) =>
    Object.values(get(commentsByIdAtom))
      .filter((c) => c.pin_id === pinId)
      .sort(newestFirst),
  );
}

/** Replaces one pin's comments with a full list from the server. */
export function setPinComments(store: Store, pinId: number, comments: readonly Comment[]): void {
  store.set(commentsByIdAtom, (prev) => {
    const next: Record<number, Comment> = {};
    for (const c of Object.values(prev)) if (c.pin_id !== pinId) next[c.id] = c;
    for (const c of comments) next[c.id] = c;
    return next;
  });
}

export function upsertComment(store: Store, comment: Comment): void {
  if (isStale(store.get(commentsByIdAtom)[comment.id], comment)) return;
  store.set(commentsByIdAtom, (prev) => ({ ...prev, [comment.id]: comment }));
}

export function removeComment(store: Store, commentId: number): void {
  store.set(commentsByIdAtom, (prev) => without(prev, commentId));
}

/** "2025-11-03T…" → "November 2025" (SPEC §5: month and year). */
export function formatCommentDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
}
