import { Link } from 'react-router';
import { SAVED_ALREADY, savedAlreadyWords } from '../../../contract/duplicate-rules.ts';
import type { DuplicatePin } from '../../../contract/duplicates.ts';
import './saved-already.css';

/**
 * Above Save on the New Pin page and in the pin builder when the picture is one the reader saved
 * already (docs/duplicates.md): their newest pin of it, and the first board it is in. Saving waits
 * for "Save anyway"; "Open it" goes to that pin. The words are the contract's, as bulk upload and
 * the browser extension say them.
 */
export function SavedAlready({ duplicate, onSaveAnyway, disabled }: { duplicate: DuplicatePin; onSaveAnyway: () => void; disabled: boolean }) {
  return (
    <div className="saved-already" role="status" aria-labelledby="saved-already-words">
      <p id="saved-already-words" className="saved-already__words">
        {savedAlreadyWords(duplicate)}
      </p>
      <div className="saved-already__actions">
        <button type="button" className="button button--secondary" onClick={onSaveAnyway} disabled={disabled}>
          {SAVED_ALREADY.saveAnyway}
        </button>
        <Link to={`/pins/${duplicate.pin.id}`} className="button button--secondary">
          {SAVED_ALREADY.openIt}
        </Link>
      </div>
    </div>
  );
}
