import { useAtomValue, useStore } from 'jotai';
import { useCallback, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Pin } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { addPinToBoard as addPinCall, createBoard } from '../api/boards.ts';
import { useDismiss } from '../hooks/useDismiss.ts';
import { useBoardList } from '../hooks/useBoardList.ts';
import { boardsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { takeOffBoard } from '../state/board-pin-actions.ts';
import { addBoard, addPinToBoard } from '../state/boards.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import { ChevronDownIcon } from './Icons.tsx';
import { ShowMore } from './ShowMore.tsx';

/**
 * The Add To Board dropdown of the pin page (docs/product.md §2, §4): the user's boards, then
 * "+ Create New Board" with a name input. Adding (or creating and adding) goes to that board.
 */
export function AddToBoard({ pin }: { pin: Pin }) {
  const store = useStore();
  const navigate = useNavigate();
  const userId = useAtomValue(sessionUserAtom)?.id;
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => {
    setOpen(false);
    setCreating(false);
  }, []);
  useDismiss(root, open, close, button);

  function toggle() {
    if (open) return close();
    setOpen(true);
    setFailed(false);
  }

  /** Up/Down, Home/End move through the picker's items (from the button too, while it is open). */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (open && menu.current) moveThroughChoices(event, menu.current);
  }

  async function addTo(boardId: number) {
    setBusy(true);
    try {
      const added = await addPinCall(boardId, pin.id);
      addPinToBoard(store, boardId, { id: added.id ?? pin.id, title: added.title ?? pin.title, image_url: added.image_url ?? pin.image_url, image: added.image ?? pin.image, visibility: added.visibility ?? pin.visibility });
      await navigate(`/boards/${boardId}`);
      const name = store.get(boardsByIdAtom)[boardId]?.name ?? 'the board';
      showToast(store, `Saved to ${name}`, { action: undoAction(store, () => takeOffBoard(store, boardId, pin.id), `Removed from ${name}`) });
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
      if (userId !== undefined) addBoard(store, board, userId);
      await addTo(board.id);
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <div className="dropdown" ref={root} onKeyDown={onKeyDown}>
      <button ref={button} type="button" className="button button--secondary" aria-expanded={open} aria-controls={menuId} onClick={toggle}>
        Add To Board <ChevronDownIcon />
      </button>
      <div id={menuId} ref={menu} className="dropdown__menu" hidden={!open}>
        {failed ? <p className="dropdown__note field__error">Something went wrong.</p> : null}
        {open && userId !== undefined ? <BoardChoices userId={userId} pinId={pin.id} busy={busy} onChoose={(id) => void addTo(id)} /> : null}
        {creating ? (
          <form className="dropdown__create" onSubmit={(e) => void onCreate(e)} noValidate>
            <label className="visually-hidden" htmlFor={`${menuId}-name`}>
              New board name
            </label>
            <input
              id={`${menuId}-name`}
              className="field__input"
              placeholder="Board name"
              value={name}
              maxLength={LIMITS.boardName}
              onChange={(e) => setName(e.target.value)}
              autoFocus
            />
            <button type="submit" className="button" disabled={busy}>
              Create
            </button>
          </form>
        ) : (
          <button type="button" className="dropdown__item dropdown__item--create" onClick={() => setCreating(true)}>
            + Create New Board
          </button>
        )}
      </div>
    </div>
  );
}

/** The user's boards in the dropdown (and the cards' Save dialog), page by page, loaded when first shown. */
/** Up/Down, Home/End move the focus through the board choices inside `container`. */
export function moveThroughChoices(event: KeyboardEvent<HTMLElement>, container: HTMLElement): void {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key) || event.target instanceof HTMLInputElement) return;
  const items = Array.from(container.querySelectorAll<HTMLButtonElement>('button.dropdown__item:not(:disabled), .show-more button:not(:disabled)'));
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  const last = items.length - 1;
  const next =
    event.key === 'Home' ? 0 : event.key === 'End' ? last : event.key === 'ArrowDown' ? (at < 0 || at === last ? 0 : at + 1) : at <= 0 ? last : at - 1;
  items[next]?.focus();
}

export function BoardChoices({ userId, pinId, busy, onChoose }: { userId: number; pinId: number; busy: boolean; onChoose: (boardId: number) => void }) {
  const list = useBoardList(userId, 'keep');
  const byId = useAtomValue(boardsByIdAtom);
  if (!list.loaded) {
    return <p className="dropdown__note">{list.status === 'error' || list.status === 'notFound' ? 'Something went wrong.' : 'Loading boards...'}</p>;
  }
  if (list.ids.length === 0 && !list.hasMore) return <p className="dropdown__note">You have no boards yet.</p>;
  return (
    <>
      <ul className="dropdown__list" aria-label="Your boards">
        {list.ids.map((id) => {
          const board = byId[id];
          if (!board) return null;
          // Known only among the board's newest pins (its covers); the server ignores a second add.
          const has = board.pins.some((p) => p.id === pinId);
          return (
            <li key={board.id}>
              <button type="button" className="dropdown__item" onClick={() => onChoose(board.id)} disabled={busy}>
                <span className="dropdown__item-name">{board.name}</span>
                {/* A shared board says so: a pin saved there is seen by its other members. */}
                {board.member_count > 1 ? <span className="shared-label">Shared</span> : null}
                {has ? <span className="dropdown__tag">Saved</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
      <ShowMore hasMore={list.hasMore} status={list.status} onMore={list.loadMore} text="Show more boards" loadingText="Loading boards..." />
    </>
  );
}
