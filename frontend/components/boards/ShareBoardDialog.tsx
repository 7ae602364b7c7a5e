import { useStore } from 'jotai';
import { useId, useState } from 'react';
import type { Board, BoardVisibility } from '../../../contract/boards.ts';
import { setBoardVisibility } from '../../api/board-links.ts';
import { upsertBoard } from '../../state/boards.ts';
import { Modal } from '../Modal.tsx';
import { BoardLinksSection } from './BoardLinksSection.tsx';
import '../../styles/board-share.css';

export const SHARE_TITLE = 'Share board';

const CHOICES: Array<{ value: BoardVisibility; label: string; hint: string }> = [
  { value: 'private', label: 'Private', hint: "Only you and the board's members can see it." },
  { value: 'public', label: 'Public', hint: 'Anyone can see it, and it is listed on your profile. Private pins stay visible to members only.' },
];

/**
 * The owner's Share dialog (docs/board-sharing.md, "Public boards and links"): who may read the
 * board (Private / Public), and its secret read-only links (make, copy once, revoke).
 */
export function ShareBoardDialog({ board, onClose }: { board: Board; onClose: () => void }) {
  const store = useStore();
  const [saving, setSaving] = useState<BoardVisibility | null>(null);
  const [error, setError] = useState<string>();
  const groupId = useId();

  async function choose(visibility: BoardVisibility) {
    if (visibility === board.visibility || saving) return;
    setSaving(visibility);
    setError(undefined);
    try {
      upsertBoard(store, await setBoardVisibility(board.id, visibility), false);
    } catch (failure) {
      console.error(failure);
      setError('Could not change who can see this board. Please try again.');
    } finally {
      setSaving(null);
    }
  }

  return (
    <Modal title={SHARE_TITLE} onClose={onClose} className="modal--share">
      <fieldset className="share-visibility" aria-describedby={error ? `${groupId}-error` : undefined}>
        <legend className="field__label">Who can see this board</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className={`share-visibility__choice${board.visibility === choice.value ? ' share-visibility__choice--on' : ''}`}>
            <input
              type="radio"
              name={`${groupId}-visibility`}
              value={choice.value}
              checked={(saving ?? board.visibility) === choice.value}
              disabled={saving !== null}
              onChange={() => void choose(choice.value)}
            />
            <span>
              <span className="share-visibility__label">{choice.label}</span>
              <span className="field__hint">{choice.hint}</span>
            </span>
          </label>
        ))}
        {error ? (
          <p id={`${groupId}-error`} className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
      <BoardLinksSection boardId={board.id} />
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
