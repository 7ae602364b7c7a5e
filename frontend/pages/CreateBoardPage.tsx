import { useStore } from 'jotai';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';
import { createBoard } from '../api/boards.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { upsertBoard } from '../state/boards.ts';
import { showToast } from '../state/toasts.ts';

export function CreateBoardPage() {
  useDocumentTitle('Create Board');
  const store = useStore();
  const navigate = useNavigate();
  const form = useForm({
    initial: { name: '' },
    validate: ({ name }): FormErrors => (name.trim() ? {} : { name: MSG.boardNameRequired }),
    async submit({ name }) {
      const board = await createBoard(name.trim());
      upsertBoard(store, board);
      await navigate('/boards');
      showToast(store, `Board "${board.name}" created`);
    },
    // The answer's errors list says what was wrong (docs/product.md §7).
    failed: (error) => ({ name: isApiError(error) && error.body.errors[0] ? error.body.errors[0] : 'Something went wrong.' }),
  });

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={form.onSubmit} noValidate aria-labelledby="create-board-title">
        <h1 id="create-board-title">Create Board</h1>
        <FormField label="Board Name" maxLength={LIMITS.boardName} {...form.field('name')} error={form.errors.name} />
        <div className="form-card__row">
          <button type="submit" className="button" disabled={form.busy}>
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
