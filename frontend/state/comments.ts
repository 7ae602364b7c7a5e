import type { Comment } from '../../contract/index.ts';
import { commentsByIdAtom } from './atoms.ts';
import { isStale, without } from './byId.ts';
import { LIST, updateList, withFirst } from './lists.ts';
import type { Store } from './store.ts';

/** Stores comments (a page, or one); an older copy (by updated_at) never overwrites a newer one. */
export function upsertComments(store: Store, comments: readonly Comment[]): void {
  const current = store.get(commentsByIdAtom);
  const fresh = comments.filter((c) => current[c.id] !== c && !isStale(current[c.id], c));
  if (!fresh.length) return;
  store.set(commentsByIdAtom, (prev) => {
    const next = { ...prev };
    for (const c of fresh) next[c.id] = c;
    return next;
  });
}

export function upsertComment(store: Store, comment: Comment): void {
  upsertComments(store, [comment]);
}

/** A comment just written (event or REST answer): stored, and first in its pin's list (newest first). */
export function addComment(store: Store, comment: Comment): void {
  upsertComment(store, comment);
  updateList(store, LIST.comments(comment.pin_id), (list) => withFirst(list, comment.id));
}

export function removeComment(store: Store, commentId: number): void {
  store.set(commentsByIdAtom, (prev) => without(prev, commentId));
}

/** "2025-11-03T…" → "November 2025" (docs/product.md §5: month and year). */
export function formatCommentDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
}
