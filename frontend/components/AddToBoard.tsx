import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Pin } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { createBoard } from '../api/boards.ts';
import { useDismiss } from '../hooks/useDismiss.ts';
import { useWholeBoardList } from '../hooks/useBoardList.ts';
import { boardsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { saveToBoard, takeOffBoard } from '../state/board-pin-actions.ts';
import { addBoard } from '../state/boards.ts';
import { matchBoards, recentBoardIds, recentFirst, rememberBoard } from '../state/save-sheet.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import type { Store } from '../state/store.ts';
import type { Board } from '../../contract/boards.ts';
import { ChevronDownIcon } from './Icons.tsx';
import { Modal } from './Modal.tsx';
import { ShowMore } from './ShowMore.tsx';

/** A phone (or any touch screen): the picker is a bottom sheet there, not a dropdown that runs off the screen. */
const PHONE_QUERY = '(max-width: 600px), (pointer: coarse)';

const phoneQuery = (): MediaQueryList | null => (typeof window.matchMedia === 'function' ? window.matchMedia(PHONE_QUERY) : null);

function useIsPhone(): boolean {
  const [phone, setPhone] = useState(() => phoneQuery()?.matches ?? false);
  useEffect(() => {
    const query = phoneQuery();
    if (!query) return;
    const update = () => setPhone(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return phone;
}

/** Saves the pin to the board through the outbox: offline it shows at once and is sent when the connection returns. */
function saveThroughOutbox(store: Store, boardId: number, pin: Pin): Promise<unknown> {
  return saveToBoard(store, boardId, { id: pin.id, title: pin.title, image_url: pin.image_url, image: pin.image, visibility: pin.visibility });
}

/** "Saved to <board>", with Undo that takes the pin off it again. */
function announceSaved(store: Store, boardId: number, pinId: number): void {
  const name = store.get(boardsByIdAtom)[boardId]?.name ?? 'the board';
  showToast(store, `Saved to ${name}`, { action: undoAction(store, () => takeOffBoard(store, boardId, pinId), `Removed from ${name}`) });
}

/** The name of a board to create (a blank name is ignored: docs/product.md §5). */
function NewBoardForm({ inputId, busy, onCreate }: { inputId: string; busy: boolean; onCreate: (name: string) => void }) {
  const [name, setName] = useState('');
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim()) onCreate(name.trim());
  }
  return (
    <form className="dropdown__create" onSubmit={onSubmit} noValidate>
      <label className="visually-hidden" htmlFor={inputId}>
        New board name
      </label>
      <input id={inputId} className="field__input" placeholder="Board name" value={name} maxLength={LIMITS.boardName} onChange={(e) => setName(e.target.value)} autoFocus />
      <button type="submit" className="button" disabled={busy}>
        Create
      </button>
    </form>
  );
}

/** Saving the pin to a board (or to a new one), then going there: busy meanwhile, `failed` after an error. */
function useSaving(pin: Pin, userId: number | undefined) {
  const store = useStore();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const fail = (error: unknown) => {
    console.error(error);
    setFailed(true);
    setBusy(false);
  };

  async function addTo(boardId: number) {
    setBusy(true);
    if (userId !== undefined) rememberBoard(userId, boardId);
    try {
      await saveThroughOutbox(store, boardId, pin);
      await navigate(`/boards/${boardId}`);
      announceSaved(store, boardId, pin.id);
    } catch (error) {
      fail(error);
    }
  }

  async function onCreate(name: string) {
    setBusy(true);
    try {
      const board = await createBoard(name);
      if (userId !== undefined) addBoard(store, board, userId);
      await addTo(board.id);
    } catch (error) {
      fail(error);
    }
  }

  return { busy, failed, setFailed, addTo, onCreate };
}

/**
 * The Add To Board picker of the pin page (docs/product.md §2, §4): the user's boards (the recently
 * used first, a filter when there are many), then "+ Create New Board" with a name input. Adding (or
 * creating and adding) goes to that board. A dropdown on a desktop; on a phone a bottom sheet that
 * fits the screen (./Modal.tsx: Escape and the backdrop close it, the focus stays inside and
 * returns to the button).
 */
export function AddToBoard({ pin }: { pin: Pin }) {
  const userId = useAtomValue(sessionUserAtom)?.id;
  const phone = useIsPhone();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const { busy, failed, setFailed, addTo, onCreate } = useSaving(pin, userId);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => {
    setOpen(false);
    setCreating(false);
  }, []);
  // The sheet (a dialog in the modal layer) closes itself; the dropdown on a press outside.
  useDismiss(root, open && !phone, close, button);

  function toggle() {
    if (open) return close();
    setOpen(true);
    setFailed(false);
  }

  /** Up/Down, Home/End move through the picker's items (from the button too, while it is open). */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (open && menu.current) moveThroughChoices(event, menu.current);
  }

  const body = (
    <div className="board-picker" ref={menu}>
      {failed ? <p className="dropdown__note field__error">Something went wrong.</p> : null}
      {open && userId !== undefined ? <BoardChoices userId={userId} pinId={pin.id} busy={busy} onChoose={(id) => void addTo(id)} focusFilter={!phone} /> : null}
      {creating ? (
        <NewBoardForm inputId={`${menuId}-name`} busy={busy} onCreate={(name) => void onCreate(name)} />
      ) : (
        <button type="button" className="dropdown__item dropdown__item--create" onClick={() => setCreating(true)}>
          + Create New Board
        </button>
      )}
    </div>
  );

  return (
    <div className="dropdown" ref={root} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="button button--secondary"
        aria-expanded={open}
        aria-haspopup={phone ? 'dialog' : undefined}
        aria-controls={phone ? undefined : menuId}
        onClick={toggle}
      >
        Add To Board <ChevronDownIcon />
      </button>
      {phone ? (
        open ? (
          <Modal title="Add To Board" onClose={close} className="modal--sheet modal--picker">
            {body}
          </Modal>
        ) : null
      ) : (
        <div id={menuId} className="dropdown__menu" hidden={!open}>
          {body}
        </div>
      )}
    </div>
  );
}

/** Up/Down, Home/End move the focus through the board choices inside `container`. */
export function moveThroughChoices(event: KeyboardEvent<HTMLElement>, container: HTMLElement): void {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key) || event.target instanceof HTMLInputElement) return;
  const items = Array.from(container.querySelectorAll<HTMLButtonElement>('button.dropdown__item:not(:disabled), .show-more button:not(:disabled)'));
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  const filter = container.querySelector<HTMLInputElement>('.board-choices__filter input');
  if (filter && at === 0 && event.key === 'ArrowUp') return filter.focus();
  const last = items.length - 1;
  const next = event.key === 'Home' ? 0 : event.key === 'End' ? last : event.key === 'ArrowDown' ? (at < 0 || at === last ? 0 : at + 1) : at <= 0 ? last : at - 1;
  items[next]?.focus();
}

/** From this many boards on, the picker has a filter field. */
const FILTER_FROM = 6;

/**
 * The user's boards to choose from (the pin page's picker and the cards' save sheet): every page of
 * them, the recently used first (state/save-sheet.ts), and from FILTER_FROM boards on a filter
 * field at the top. The list stays a list of buttons: Down from the field goes into it, Up and
 * Down, Home and End move through it (moveThroughChoices), Up from the first board goes back to
 * the field, Enter in the field picks the first match.
 */
export function BoardChoices({ userId, pinId, busy, onChoose, focusFilter = false }: { userId: number; pinId: number; busy: boolean; onChoose: (boardId: number) => void; focusFilter?: boolean }) {
  const list = useWholeBoardList(userId);
  const byId = useAtomValue(boardsByIdAtom);
  const [query, setQuery] = useState('');
  // Read when the picker opens: the order does not change under the reader's finger.
  const [recent] = useState(() => recentBoardIds(userId));
  const listRef = useRef<HTMLUListElement>(null);
  const id = useId();
  if (!list.loaded) {
    return <p className="dropdown__note">{list.status === 'error' || list.status === 'notFound' ? 'Something went wrong.' : 'Loading boards...'}</p>;
  }
  if (list.ids.length === 0 && !list.hasMore) return <p className="dropdown__note">You have no boards yet.</p>;
  const boards = list.ids.map((boardId) => byId[boardId]).filter((board): board is Board => board !== undefined);
  const ordered = recentFirst(boards, recent);
  const shown = matchBoards(ordered, query);
  const lastRecent = query ? -1 : ordered.findLastIndex((board) => recent.includes(board.id));
  const choose = (boardId: number) => {
    rememberBoard(userId, boardId);
    onChoose(boardId);
  };
  function onFilterKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      listRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const first = shown[0];
      if (first && query.trim() && !busy) choose(first.id);
    }
  }
  return (
    <div className="board-choices">
      {boards.length >= FILTER_FROM || query ? (
        <div className="board-choices__filter">
          <label className="visually-hidden" htmlFor={`${id}-filter`}>
            Filter boards
          </label>
          <input
            id={`${id}-filter`}
            type="search"
            className="field__input"
            placeholder="Filter boards"
            autoComplete="off"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onFilterKey}
            aria-controls={`${id}-list`}
            aria-describedby={`${id}-count`}
            autoFocus={focusFilter}
          />
          <p id={`${id}-count`} className="visually-hidden" aria-live="polite">
            {query ? `${shown.length} ${shown.length === 1 ? 'board' : 'boards'}` : ''}
          </p>
        </div>
      ) : null}
      <ul ref={listRef} id={`${id}-list`} className="dropdown__list" aria-label="Your boards">
        {shown.map((board, index) => {
          // Known only among the board's newest pins (its covers); the server ignores a second add.
          const has = board.pins.some((p) => p.id === pinId);
          return (
            <li key={board.id} className={index === lastRecent && index < shown.length - 1 ? 'dropdown__recent-end' : undefined}>
              <button type="button" className="dropdown__item" onClick={() => choose(board.id)} disabled={busy}>
                <span className="dropdown__item-name">{board.name}</span>
                {/* A shared board says so: a pin saved there is seen by its other members. */}
                {board.member_count > 1 ? <span className="shared-label">Shared</span> : null}
                {has ? <span className="dropdown__tag">Saved</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
      {shown.length === 0 ? <p className="dropdown__note">No boards match “{query}”.</p> : null}
      {list.hasMore ? <ShowMore hasMore status={list.status} onMore={list.loadMore} text="Show more boards" loadingText="Loading boards..." /> : null}
    </div>
  );
}
