import { useAtomValue, useStore } from 'jotai';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Comment } from '../../contract/index.ts';
import { deleteComment, fetchCommentPage } from '../api/comments.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { useWatchPins } from '../live/hooks.ts';
import { commentsByIdAtom, sessionCheckedAtom, sessionUserAtom } from '../state/atoms.ts';
import { formatCommentDate, pendingCommentsAtom, type PendingComment, removeComment, upsertComments } from '../state/comments.ts';
import { MSG } from '../../contract/messages.ts';
import { LIST } from '../state/lists.ts';
import { CommentModal } from './CommentModal.tsx';
import { ConfirmModal } from './ConfirmModal.tsx';
import { RelativeTime } from './RelativeTime.tsx';
import { ShowMore } from './ShowMore.tsx';

/** The comment list under a pin: newest first, page by page, month and year, author-only Edit and Delete. */
export function CommentSection({ pinId }: { pinId: number }) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const list = usePagedList<Comment>({
    key: LIST.comments(pinId),
    fetchPage: async (cursor) => {
      const page = await fetchCommentPage(pinId, { cursor });
      return { items: page.comments, nextCursor: page.nextCursor };
    },
    keep: upsertComments,
    idOf: (comment) => comment.id,
    entities: commentsByIdAtom,
  });
  const byId = useAtomValue(commentsByIdAtom);
  const comments = useMemo(() => list.ids.map((id) => byId[id]).filter((c): c is Comment => c !== undefined), [list.ids, byId]);
  const status = list.loaded ? 'ready' : list.status;
  const mine = user ? comments.find((comment) => comment.user_id === user.id) : undefined;
  // Yours still in the outbox (docs/outbox.md): shown first, as waiting, until the server has it.
  const pending = useAtomValue(pendingCommentsAtom)[pinId] ?? [];
  const signedOut = useAtomValue(sessionCheckedAtom) && !user;
  const location = useLocation();
  const [editing, setEditing] = useState<{ comment?: Comment } | null>(null);
  const [deleting, setDeleting] = useState<Comment | null>(null);
  useWatchPins([pinId]); // comments added, edited or deleted elsewhere show up here

  async function onDelete(comment: Comment) {
    try {
      await deleteComment(comment.id);
      removeComment(store, comment.id);
    } catch (error) {
      console.error(error);
    }
    void list.reload(); // docs/product.md §4: the list is reloaded after a delete
  }

  return (
    <section className="comments" aria-labelledby="comments-title">
      <div className="comments__header">
        <h2 id="comments-title">
          Comments{' '}
          <span className="comments__count">
            {comments.length + pending.length}
            {list.hasMore ? '+' : ''}
          </span>
        </h2>
        {user && pending.length ? null : user && mine ? (
          // One comment per pin (docs/product.md §6): say so up front by offering to edit it.
          <button type="button" className="button button--small" onClick={() => setEditing({ comment: mine })}>
            Edit Your Comment
          </button>
        ) : user ? (
          <button type="button" className="button button--small" onClick={() => setEditing({})}>
            Add Comment
          </button>
        ) : signedOut ? (
          <Link className="button button--small button--secondary" to="/login" state={{ from: `${location.pathname}${location.search}` }}>
            Log in to comment
          </Link>
        ) : null}
      </div>
      {pending.length ? (
        <ul className="comments__list comments__list--pending">
          {pending.map((comment) => (
            <PendingCommentItem key={comment.key} comment={comment} />
          ))}
        </ul>
      ) : null}
      {comments.length === 0 && pending.length ? null : comments.length === 0 ? (
        <p className="comments__empty">
          {status === 'loading' || status === 'idle' ? 'Loading comments...' : status === 'error' || status === 'notFound' ? 'Comments could not be loaded.' : 'No comments yet.'}
        </p>
      ) : (
        <ul className="comments__list">
          {comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment} own={user?.id === comment.user_id} onEdit={() => setEditing({ comment })} onDelete={() => setDeleting(comment)} />
          ))}
        </ul>
      )}
      <ShowMore hasMore={list.hasMore} status={list.loaded ? list.status : 'ready'} onMore={list.loadMore} text="Show more comments" loadingText="Loading comments..." />
      {editing ? <CommentModal pinId={pinId} {...(editing.comment ? { comment: editing.comment } : {})} onClose={() => setEditing(null)} /> : null}
      {deleting ? <ConfirmModal title="Delete Comment" message="Are you sure you want to delete this comment?" onConfirm={() => onDelete(deleting)} onClose={() => setDeleting(null)} /> : null}
    </section>
  );
}

/** One comment: its author's initial and name, when, the text, and Edit and Delete for its author. */
function CommentItem({ comment, own, onEdit, onDelete }: { comment: Comment; own: boolean; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="comment">
      <div className="comment__avatar" aria-hidden="true">
        {comment.username.slice(0, 1).toUpperCase()}
      </div>
      <div className="comment__main">
        <p className="comment__meta">
          <Link className="comment__author" to={`/users/${encodeURIComponent(comment.username)}`}>
            {comment.username}
          </Link>{' '}
          <RelativeTime iso={comment.created_at} label={formatCommentDate(comment.created_at)} />
        </p>
        <p className="comment__text">{comment.text}</p>
        {own ? (
          <div className="comment__actions">
            <button type="button" className="link-button" onClick={onEdit}>
              Edit
            </button>
            <button type="button" className="link-button link-button--danger" onClick={onDelete}>
              Delete
            </button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** One of your comments still in the outbox: as the list will show it, marked while it waits. */
function PendingCommentItem({ comment }: { comment: PendingComment }) {
  return (
    <li className={`comment${comment.waiting ? ' comment--waiting' : ''}`}>
      <div className="comment__avatar" aria-hidden="true">
        {comment.username.slice(0, 1).toUpperCase()}
      </div>
      <div className="comment__main">
        <p className="comment__meta">
          <span className="comment__author">{comment.username}</span>{' '}
          {comment.waiting ? <span className="outbox-waiting">{MSG.outboxWaiting}</span> : <RelativeTime iso={comment.createdAt} label={formatCommentDate(comment.createdAt)} />}
        </p>
        <p className="comment__text">{comment.text}</p>
      </div>
    </li>
  );
}
