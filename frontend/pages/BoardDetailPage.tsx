import { useAtomValue, useStore } from 'jotai';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Board } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { deleteBoard, fetchBoard, removePinFromBoard as removePinCall, renameBoard } from '../api/boards.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { NotFound } from '../components/ErrorPage.tsx';
import { PinCard, PinGrid } from '../components/PinCard.tsx';
import { Empty, Loading, RetryLoad } from '../components/Status.tsx';
import { runAfterNavigation } from '../hooks/afterNavigation.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { useParamId } from '../hooks/useParamId.ts';
import { boardsByIdAtom } from '../state/atoms.ts';
import { removeBoard, removePinFromBoard, upsertBoard } from '../state/boards.ts';
import type { Store } from '../state/store.ts';
import { loadWithLiveReplay } from '../live/client.ts';

export const LOADING_BOARD = 'Loading board details...';
const BOARD_EMPTY = 'No pins in this board yet.';

/** Loads one board into the store; the screens read it from there. */
export function useBoard(idParam: string) {
  const store = useStore();
  const id = useParamId(idParam);
  const board = useAtomValue(boardsByIdAtom)[id ?? 0];
  const load = useLoad(async () => {
    if (id === null) throw new Error('bad id');
    upsertBoard(store, await fetchBoard(id));
  }, `board-${id}`);
  return { id, board, ...load };
}

/** Board rename rule (SPEC §5): the trimmed name, when non-empty and different; else null. */
function renameTarget(current: string, draft: string): string | null {
  const trimmed = draft.trim();
  return trimmed && trimmed !== current ? trimmed : null;
}

export async function removeFromBoard(store: Store, boardId: number, pinId: number): Promise<void> {
  try {
    await removePinCall(boardId, pinId);
    removePinFromBoard(store, boardId, pinId);
  } catch (error) {
    console.error(error);
  }
  // The list is reloaded after a delete (SPEC §4).
  try {
    await loadWithLiveReplay(store, async () => upsertBoard(store, await fetchBoard(boardId)));
  } catch (error) {
    console.error(error);
  }
}

export function BoardDetailPage() {
  const { id, board, status, reload } = useBoard('boardId');
  useDocumentTitle(board?.name ?? 'Board');
  if (id === null) return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  if (!board) {
    if (status === 'loading') return <Loading text={LOADING_BOARD} />;
    if (status === 'error') return <RetryLoad onRetry={reload} />;
    return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  }
  return <BoardDetail board={board} />;
}

function BoardDetail({ board }: { board: Board }) {
  const store = useStore();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(board.name);
  const [renameError, setRenameError] = useState<string>();
  const [confirmBoard, setConfirmBoard] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);

  function startEdit() {
    setDraft(board.name);
    setRenameError(undefined);
    setEditing(true);
  }

  async function onRename(event: FormEvent) {
    event.preventDefault();
    const name = renameTarget(board.name, draft);
    if (name === null) {
      setEditing(false); // unchanged or blank: nothing is saved
      return;
    }
    try {
      const saved = await renameBoard(board.id, name);
      upsertBoard(store, saved && typeof saved === 'object' && 'pins' in saved ? saved : { ...board, name });
      setEditing(false);
    } catch (error) {
      console.error(error);
      setRenameError('Something went wrong.');
    }
  }

  function onRenameKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      setEditing(false);
    }
  }

  async function onDeleteBoard() {
    try {
      await deleteBoard(board.id);
      runAfterNavigation(() => removeBoard(store, board.id));
      await navigate('/boards'); // the boards page reloads the list (SPEC §4)
    } catch (error) {
      console.error(error);
    }
  }

  return (
    <>
      <Link to="/boards" className="back-link">
        ← Back to Boards
      </Link>
      <header className="page-header page-header--board">
        {editing ? (
          <form className="rename-form" onSubmit={(e) => void onRename(e)} noValidate>
            <label htmlFor="board-rename" className="visually-hidden">
              Board name
            </label>
            <input
              id="board-rename"
              className="field__input rename-form__input"
              value={draft}
              maxLength={LIMITS.boardName}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onRenameKey}
              autoFocus
            />
            <button type="submit" className="button">
              OK
            </button>
            {renameError ? <p className="field__error">{renameError}</p> : null}
          </form>
        ) : (
          <h1>{board.name}</h1>
        )}
        <div className="page-header__actions">
          {!editing ? (
            <button type="button" className="button button--secondary" onClick={startEdit}>
              Rename Board
            </button>
          ) : null}
          <Link to={`/boards/${board.id}/manage-pins`} className="button button--secondary">
            Manage Pins
          </Link>
          <button type="button" className="button button--danger" onClick={() => setConfirmBoard(true)}>
            Delete Board
          </button>
        </div>
      </header>
      <p className="page-subtitle">
        {board.pins.length} {board.pins.length === 1 ? 'pin' : 'pins'}
      </p>
      {board.pins.length === 0 ? (
        <Empty>
          <p>{BOARD_EMPTY}</p>
          <Link to="/" className="button">
            Find pins to save
          </Link>
        </Empty>
      ) : (
        <PinGrid label={`Pins in ${board.name}`}>
          {board.pins.map((pin) => (
            <PinCard
              key={pin.id}
              pinId={pin.id}
              title={pin.title}
              imageUrl={pin.image_url}
              footer={
                <button type="button" className="link-button link-button--danger" onClick={() => setRemoving(pin.id)} aria-label={`Delete Pin ${pin.title} from this board`}>
                  Delete Pin
                </button>
              }
            />
          ))}
        </PinGrid>
      )}
      {confirmBoard ? (
        <ConfirmModal
          title="Delete Board"
          message={`Are you sure you want to delete the board "${board.name}"?`}
          onConfirm={onDeleteBoard}
          onClose={() => setConfirmBoard(false)}
        />
      ) : null}
      {removing !== null ? (
        <ConfirmModal
          title="Delete Pin"
          message="Are you sure you want to remove this pin from the board?"
          onConfirm={() => removeFromBoard(store, board.id, removing)}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
