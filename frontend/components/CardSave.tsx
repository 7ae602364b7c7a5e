import { useAtomValue, useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Pin } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { createBoard } from '../api/boards.ts';
import { boardsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { saveToBoard, takeOffBoard } from '../state/board-pin-actions.ts';
import { addBoard } from '../state/boards.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import { BoardChoices, moveThroughChoices } from './AddToBoard.tsx';
import { Modal } from './Modal.tsx';
import { ShareButton } from './ShareButton.tsx';

/**
 * Save from a grid card: the board picker of the pin page in a dialog (boards that hold the pin are
 * marked, a new board can be made inline), and Share. Saving stays on the grid and says so in a toast with Undo.
 * A signed-out visitor is offered to log in and come back here instead.
 */
export function CardSave({ pin }: { pin: Pick<Pin, 'id' | 'title' | 'image_url' | 'image'> }) {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [name, setName] = useState('');

  function onOpen() {
    if (user) return setOpen(true);
    const from = `${location.pathname}${location.search}`;
    showToast(store, 'Log in to save pins to your boards.', { action: { label: 'Log in', run: () => navigate('/login', { state: { from } }) } });
  }

  async function saveTo(boardId: number) {
    setBusy(true);
    setFailed(false);
    try {
      await saveToBoard(store, boardId, { id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image });
      const boardName = store.get(boardsByIdAtom)[boardId]?.name ?? 'the board';
      setOpen(false);
      showToast(store, `Saved to ${boardName}`, { action: undoAction(store, () => takeOffBoard(store, boardId, pin.id), `Removed from ${boardName}`) });
    } catch (error) {
      console.error(error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  async function onCreate(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || !user) return; // SPEC §5: a blank name is ignored
    setBusy(true);
    try {
      const board = await createBoard(trimmed);
      addBoard(store, board, user.id);
      setName('');
      await saveTo(board.id);
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="card-save" onClick={onOpen} aria-label={`Save ${pin.title} to a board`} aria-haspopup="dialog">
        Save
      </button>
      {open && user ? (
        <Modal title="Save to board" onClose={() => setOpen(false)} className="modal--save">
          {/* Up/Down from anywhere in the dialog (but its text field) move through the boards. */}
          <div onKeyDown={(event) => moveThroughChoices(event, event.currentTarget)}>
            <div className="card-save__share">
              <ShareButton title={pin.title} url={`${window.location.origin}/pins/${pin.id}`} />
              <span>Share this pin</span>
            </div>
            {failed ? <p className="field__error">Something went wrong.</p> : null}
            <div className="card-save__choices">
              <BoardChoices userId={user.id} pinId={pin.id} busy={busy} onChoose={(id) => void saveTo(id)} />
            </div>
            <form className="dropdown__create" onSubmit={(e) => void onCreate(e)} noValidate>
              <label className="visually-hidden" htmlFor={`card-save-${pin.id}`}>
                New board name
              </label>
              <input
                id={`card-save-${pin.id}`}
                className="field__input"
                placeholder="+ Create New Board"
                value={name}
                maxLength={LIMITS.boardName}
                onChange={(e) => setName(e.target.value)}
              />
              <button type="submit" className="button" disabled={busy}>
                Create
              </button>
            </form>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
