import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { createBoard } from '../api/boards.ts';
import { refavorite, useFavoriteToggle } from '../hooks/useFavoriteToggle.ts';
import { boardsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { saveToBoard, takeOffBoard } from '../state/board-pin-actions.ts';
import { addBoard } from '../state/boards.ts';
import { closeSaveSheet, openSaveSheet, pendingSaveAtom, saveSheetAtom, type SaveTarget } from '../state/save-sheet.ts';
import type { Store } from '../state/store.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import { BoardChoices, moveThroughChoices } from './AddToBoard.tsx';
import { HeartIcon } from './Icons.tsx';
import { Modal } from './Modal.tsx';
import { ShareButton } from './ShareButton.tsx';

export const SAVE_SIGNED_OUT = 'Log in to save pins to your boards.';

/** The app's one save sheet (state/save-sheet.ts), in the layout. */
export function SaveSheet() {
  const store = useStore();
  const pin = useAtomValue(saveSheetAtom);
  const user = useAtomValue(sessionUserAtom);
  usePendingSave();
  if (!pin) return null;
  const close = () => closeSaveSheet(store);
  return (
    <Modal key={pin.id} title={user ? 'Save to board' : 'Save this pin'} onClose={close} className="modal--save modal--sheet">
      <p className="modal__detail save-sheet__pin">{pin.title}</p>
      {user ? <SignedInSheet pin={pin} userId={user.id} onDone={close} /> : <SignedOutSheet pin={pin} onDone={close} />}
    </Modal>
  );
}

/** Reopens a save started signed out, once the visitor is back where they started it, signed in. */
function usePendingSave(): void {
  const store = useStore();
  const pending = useAtomValue(pendingSaveAtom);
  const user = useAtomValue(sessionUserAtom);
  const location = useLocation();
  useEffect(() => {
    if (!pending || /^\/(login|signup)$/.test(location.pathname)) return;
    if (location.key !== pending.entryKey)
      store.set(pendingSaveAtom, null); // went elsewhere: forgotten
    else if (user) {
      store.set(pendingSaveAtom, null);
      openSaveSheet(store, pending.pin);
    }
  }, [store, pending, user, location.key, location.pathname]);
}

function SignedOutSheet({ pin, onDone }: { pin: SaveTarget; onDone: () => void }) {
  const store = useStore();
  const navigate = useNavigate();
  const location = useLocation();
  // `back: 1`: once signed in, the login page goes back one entry, to this very page (Guards.tsx).
  function go(path: '/login' | '/signup') {
    store.set(pendingSaveAtom, { pin, entryKey: location.key });
    onDone();
    void navigate(path, { state: { from: `${location.pathname}${location.search}`, back: 1 } });
  }
  return (
    <>
      <p className="modal__message">{SAVE_SIGNED_OUT}</p>
      <div className="card-save__share">
        <ShareButton title={pin.title} url={`${window.location.origin}/pins/${pin.id}`} />
        <span>Share this pin</span>
      </div>
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={() => go('/signup')}>
          Sign up
        </button>
        <button type="button" className="button" onClick={() => go('/login')} data-autofocus>
          Log in
        </button>
      </div>
    </>
  );
}

async function saveAndSay(store: Store, boardId: number, pin: SaveTarget): Promise<void> {
  await saveToBoard(store, boardId, pin);
  const boardName = store.get(boardsByIdAtom)[boardId]?.name ?? 'the board';
  showToast(store, `Saved to ${boardName}`, { action: undoAction(store, () => takeOffBoard(store, boardId, pin.id), `Removed from ${boardName}`) });
}

/**
 * The pin page's board picker in a dialog (boards that hold the pin are marked, a new board can be
 * made inline), a favorite toggle and Share. Saving stays where it is and says so in a toast with Undo.
 */
function SignedInSheet({ pin, userId, onDone }: { pin: SaveTarget; userId: number; onDone: () => void }) {
  const store = useStore();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [name, setName] = useState('');

  async function saveTo(boardId: number) {
    setBusy(true);
    setFailed(false);
    try {
      await saveAndSay(store, boardId, pin);
      onDone();
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  async function onCreate(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return; // docs/product.md §5: a blank name is ignored
    setBusy(true);
    try {
      const board = await createBoard(trimmed);
      addBoard(store, board, userId);
      setName('');
      await saveTo(board.id);
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    // Up/Down from anywhere in the dialog (but its text field) move through the boards.
    <div onKeyDown={(event) => moveThroughChoices(event, event.currentTarget)}>
      <div className="card-save__share">
        <ShareButton title={pin.title} url={`${window.location.origin}/pins/${pin.id}`} />
        <span>Share</span>
        <FavoriteToggle pin={pin} />
      </div>
      {failed ? <p className="field__error">Something went wrong.</p> : null}
      <div className="card-save__choices">
        <BoardChoices userId={userId} pinId={pin.id} busy={busy} onChoose={(id) => void saveTo(id)} />
      </div>
      <form className="dropdown__create" onSubmit={(e) => void onCreate(e)} noValidate>
        <label className="visually-hidden" htmlFor={`card-save-${pin.id}`}>
          New board name
        </label>
        <input id={`card-save-${pin.id}`} className="field__input" placeholder="+ Create New Board" value={name} maxLength={LIMITS.boardName} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="button" disabled={busy}>
          Create
        </button>
      </form>
    </div>
  );
}

/** The card's heart, in the sheet: on a touch screen the card shows none over its image. */
function FavoriteToggle({ pin }: { pin: SaveTarget }) {
  const store = useStore();
  const { favorited, busy, toggle } = useFavoriteToggle(pin.id);
  async function onToggle() {
    const result = await toggle();
    if (result === 'removed') showToast(store, `Removed ${pin.title} from favorites`, { action: undoAction(store, () => refavorite(store, pin.id)) });
    if (result === 'added') showToast(store, `Added ${pin.title} to favorites`);
  }
  return (
    <button type="button" className={`sheet-favorite${favorited ? ' sheet-favorite--on' : ''}`} aria-pressed={favorited} disabled={busy} onClick={() => void onToggle()}>
      <HeartIcon filled={favorited} />
      <span>{favorited ? 'In your favorites' : 'Add to favorites'}</span>
    </button>
  );
}
