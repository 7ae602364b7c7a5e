import { Link } from 'react-router';
import type { DuplicatePin } from '../../../contract/duplicates.ts';
import { savedOn } from '../duplicates/saved-on.ts';
import './saved-already.css';

/**
 * Above Save on the New Pin page when the uploaded picture is one the reader saved already
 * (docs/duplicates.md): their newest pin of it, and the first board it is in. Saving waits for
 * "Save anyway"; "Open it" goes to that pin.
 */
export function SavedAlready({ duplicate, onSaveAnyway, disabled }: { duplicate: DuplicatePin; onSaveAnyway: () => void; disabled: boolean }) {
  const board = duplicate.boards[0];
  return (
    <div className="saved-already" role="status" aria-labelledby="saved-already-words">
      <p id="saved-already-words" className="saved-already__words">
        You saved this on {savedOn(duplicate.pin.created_at)}
        {board ? ` to ${board.name}` : ''}
      </p>
      <div className="saved-already__actions">
        <button type="button" className="button button--secondary" onClick={onSaveAnyway} disabled={disabled}>
          Save anyway
        </button>
        <Link to={`/pins/${duplicate.pin.id}`} className="button button--secondary">
          Open it
        </Link>
      </div>
    </div>
  );
}
