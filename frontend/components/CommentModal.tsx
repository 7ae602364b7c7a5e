import { useAtomValue, useStore } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import type { Comment } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';
import { createComment, updateComment } from '../api/comments.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { addComment, upsertComment } from '../state/comments.ts';
import { Modal } from './Modal.tsx';

const COMMENT_REQUIRED = MSG.commentRequired; // "Text is required"
const COMMENT_LOGGED_OUT = 'You must be logged in to submit a comment.';
const COMMENT_DUPLICATE = 'You already submitted a comment on this pin.';
const COMMENT_FAILED = 'Something went wrong.';

/** docs/product.md §8: the duplicate comment and a lost session get their own texts; the rest is generic. */
function commentErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.body.errors.includes(MSG.commentDuplicate)) return COMMENT_DUPLICATE;
    if (error.status === 401) return COMMENT_LOGGED_OUT;
  }
  return COMMENT_FAILED;
}

type Props = { pinId: number; comment?: Comment; onClose: () => void };

/** Add (or, given `comment`, edit) a comment; closes on success and on a press outside. */
export function CommentModal({ pinId, comment, onClose }: Props) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const [text, setText] = useState(comment?.text ?? '');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const fieldId = useId();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!user) return setError(COMMENT_LOGGED_OUT);
    if (!text.trim()) return setError(COMMENT_REQUIRED);
    setError(undefined);
    setBusy(true);
    try {
      if (comment) upsertComment(store, await updateComment(comment.id, text.trim()));
      else addComment(store, await createComment(pinId, text.trim()));
      onClose();
    } catch (err) {
      setError(commentErrorMessage(err));
      setBusy(false);
    }
  }

  return (
    <Modal title={comment ? 'Edit Comment' : 'Add Comment'} onClose={onClose}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="modal__form">
        <label htmlFor={fieldId} className="field__label">
          Comment
        </label>
        <textarea
          id={fieldId}
          className={`field__input${error ? ' field__input--invalid' : ''}`}
          rows={4}
          value={text}
          maxLength={LIMITS.comment}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          data-autofocus
        />
        {error ? (
          <p id={`${fieldId}-error`} className="field__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="submit" className="button" disabled={busy}>
            {comment ? 'Save' : 'Submit'}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
