import { atom } from 'jotai';
import type { Comment } from '../../contract/index.ts';
import { MSG } from '../../contract/messages.ts';
import { entriesOfKind, myOutboxEntriesAtom, waitingEntriesAtom } from '../outbox/atoms.ts';
import { refusalWords } from '../outbox/entry.ts';
import { type OutboxHandlers, queueWrite } from '../outbox/outbox.ts';
import { commentsByIdAtom, sessionUserAtom } from './atoms.ts';
import { isStale, without } from './byId.ts';
import { LIST, updateList, withFirst } from './lists.ts';
import type { Store } from './store.ts';
import { retryAction, showToast } from './toasts.ts';

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

/**
 * A comment just written (event or REST answer): stored, and first in its pin's list (newest first).
 * A stand-in for one still waiting in the outbox (a negative id) is not stored: the comment list
 * shows the outbox's entry itself (pendingCommentsAtom) until the server has the comment.
 */
export function addComment(store: Store, comment: Comment): void {
  if (comment.id < 0) return;
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

// New comments go through the outbox (docs/outbox.md): sent at once with their Idempotency-Key,
// kept when no answer came, shown in their pin's list as waiting, and taken off with words if the
// server refuses them later (the pin was deleted meanwhile, say).

/** A comment still in the outbox, as its pin's list shows it. */
export interface PendingComment {
  key: string;
  pinId: number;
  text: string;
  createdAt: string;
  username: string;
  /** Its first attempt is over: it shows "Waiting to send". */
  waiting: boolean;
}

/** pin id → its comments still in the outbox (oldest first). */
export const pendingCommentsAtom = atom((get) => {
  const waiting = new Set(get(waitingEntriesAtom).map((entry) => entry.key));
  const username = get(sessionUserAtom)?.username ?? '';
  const out: Record<number, PendingComment[]> = {};
  for (const entry of entriesOfKind(get(myOutboxEntriesAtom), 'comment')) {
    const { pinId, text } = entry.subject;
    (out[pinId] ??= []).push({ key: entry.key, pinId, text, createdAt: new Date(entry.createdAt).toISOString(), username, waiting: waiting.has(entry.key) });
  }
  return out;
});

let nextStandIn = -1;

/**
 * Posts a comment through the outbox: resolves with the server's comment, or — while it waits —
 * with a stand-in of negative id that addComment leaves out (the list shows the waiting entry).
 * Rejects with the server's refusal while the screen that posted it is still waiting for it, so
 * the form can say why in place.
 */
export async function postComment(store: Store, pinId: number, text: string): Promise<Comment> {
  const user = store.get(sessionUserAtom);
  if (!user) throw new Error('signed out');
  const outcome = await queueWrite(store, { userId: user.id, label: text, subject: { kind: 'comment', pinId, text } });
  if (outcome.status === 'sent') return outcome.answer as Comment;
  if (outcome.status === 'refused') throw outcome.reason === 'refused' ? outcome.error : new Error(refusalWords(MSG.commentRefused, outcome));
  const now = new Date().toISOString();
  return { id: nextStandIn--, pin_id: pinId, user_id: user.id, username: user.username, text, created_at: now, updated_at: now };
}

/** What the outbox does for new comments on screen (Layout hands these to startOutbox). */
export const commentOutbox: Pick<OutboxHandlers, 'comment'> = {
  comment: {
    sent: (store, _entry, answer) => addComment(store, answer as Comment),
    refused: (store, { subject }, refusal, asked) => {
      // The form that posted it is open and says why itself.
      if (asked && refusal.reason === 'refused') return;
      const pinGone = refusal.reason === 'refused' && refusal.error.status === 404;
      if (pinGone) return showToast(store, MSG.commentPinGone);
      showToast(store, refusalWords(MSG.commentRefused, refusal), {
        action: retryAction(() =>
          postComment(store, subject.pinId, subject.text).then(
            (comment) => addComment(store, comment),
            () => undefined,
          ),
        ),
      });
    },
  },
};
