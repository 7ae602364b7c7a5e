import { useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';
import { createBoard } from '../api/boards.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { upsertBoard } from '../state/boards.ts';

export const BOARD_NAME_REQUIRED = MSG.boardNameRequired; // "Board name cannot be empty."

export function CreateBoardPage() {
  useDocumentTitle('Create Board');
  const store = useStore();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError(BOARD_NAME_REQUIRED);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      upsertBoard(store, await createBoard(name.trim()));
      await navigate('/boards');
    } catch (err) {
      // The answer's errors list says what was wrong (SPEC §7).
      setError(isApiError(err) && err.body.errors[0] ? err.body.errors[0] : 'Something went wrong.');
      setBusy(false);
    }
  }

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="create-board-title">
        <h1 id="create-board-title">Create Board</h1>
        <FormField label="Board Name" name="name" value={name} maxLength={LIMITS.boardName} onChange={(e) => setName(e.target.value)} error={error} />
        <div className="form-card__row">
          <button type="submit" className="button" disabled={busy}>
            Create
          </button>
          <Link to="/boards" className="button button--secondary">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
