import { useAtomValue, useStore } from 'jotai';
import { useMemo, useState } from 'react';
import type { Comment } from '../../contract/index.ts';
import { deleteComment, fetchComments } from '../api/comments.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { useWatchComments } from '../live/hooks.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { commentsForPinAtom, formatCommentDate, removeComment, setPinComments } from '../state/comments.ts';
import { CommentModal } from './CommentModal.tsx';
import { ConfirmModal } from './ConfirmModal.tsx';

/** The comment list under a pin: newest first, month and year, author-only Edit and Delete. */
export function CommentSection({ pinId }: { pinId: number }) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const comments = useAtomValue(useMemo(() => commentsForPinAtom(pinId), [pinId]));
  const [editing, setEditing] = useState<{ comment?: Comment } | null>(null);
  const [deleting, setDeleting] = useState<Comment | null>(null);
  const { status, reload } = useLoad(async () => setPinComments(store, pinId, await fetchComments(pinId)), `comments-${pinId}`);
  useWatchComments(pinId); // comments added, edited or deleted elsewhere show up here

  async function onDelete(comment: Comment) {
    try {
      await deleteComment(comment.id);
      removeComment(store, comment.id);
    } catch (error) {
      console.error(error);
    }
    reload(); // SPEC §4: the list is reloaded after a delete
  }

  return (
    <section className="comments" aria-labelledby="comments-title">
      <div className="comments__header">
        <h2 id="comments-title">
          Comments <span className="comments__count">{comments.length}</span>
        </h2>
        {user ? (
          <button type="button" className="button button--small" onClick={() => setEditing({})}>
            Add Comment
          </button>
        ) : null}
      </div>
      {comments.length === 0 ? (
        <p className="comments__empty">
          {status === 'loading' ? 'Loading comments...' : status === 'error' ? 'Comments could not be loaded.' : 'No comments yet.'}
        </p>
      ) : (
        <ul className="comments__list">
          {comments.map((comment) => (
            <li key={comment.id} className="comment">
              <div className="comment__avatar" aria-hidden="true">
                {comment.username.slice(0, 1).toUpperCase()}
              </div>
              <div className="comment__main">
                <p className="comment__meta">
                  <span className="comment__author">{comment.username}</span>{' '}
                  <time dateTime={comment.created_at}>{formatCommentDate(comment.created_at)}</time>
                </p>
                <p className="comment__text">{comment.text}</p>
                {user?.id === comment.user_id ? (
                  <div className="comment__actions">
                    <button type="button" className="link-button" onClick={() => setEditing({ comment })}>
                      Edit
                    </button>
                    <button type="button" className="link-button link-button--danger" onClick={() => setDeleting(comment)}>
                      Delete
                    </button>
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing ? <CommentModal pinId={pinId} {...(editing.comment ? { comment: editing.comment } : {})} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmModal
          title="Delete Comment"
          message="Are you sure you want to delete this comment?"
          onConfirm={() => onDelete(deleting)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}
