import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import type { Board, BoardPin } from '../../contract/index.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { renameBoard } from '../api/boards.ts';
import { BoardMembersDialog } from '../components/boards/BoardMembersDialog.tsx';
import { InvitationNotice, useInvitation } from '../components/boards/InvitationNotice.tsx';
import { MemberAvatars } from '../components/boards/MemberAvatars.tsx';
import { ShareBoardDialog } from '../components/boards/ShareBoardDialog.tsx';
import { BoardPresence } from '../components/BoardPresence.tsx';
import { BulkUpload } from '../bulk/BulkUpload.tsx';
import { BoardSearch } from './BoardSearch.tsx';
import { CardMore, CardSave } from '../components/CardSave.tsx';
import { CardButton } from '../components/grid/card-focus.tsx';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { NotFound } from '../components/ErrorPage.tsx';
import { MasonryGrid } from '../components/grid/MasonryGrid.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { PinCard } from '../components/PinCard.tsx';
import { Empty, Loading } from '../components/Status.tsx';
import { runAfterNavigation } from '../hooks/afterNavigation.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useEntity } from '../hooks/useEntity.ts';
import { usePagedList, type PagedListView } from '../hooks/usePagedList.ts';
import { useParamId } from '../hooks/useParamId.ts';
import { boardPinsByIdAtom, boardsLostAtom, sessionUserAtom } from '../state/atoms.ts';
import { removeBoardMember } from '../state/board-members.ts';
import { keepBoardPins, upsertBoard } from '../state/boards.ts';
import { LIST } from '../state/lists.ts';
import { boardPinsSource, REMOVE_NOT_DELETE, removeFromBoard } from '../state/board-pin-actions.ts';
import { deleteLater } from '../state/deferred-deletes.ts';
import { hiddenBoardIdsAtom, visibleBoardPinsByIdAtom, visibleBoardsByIdAtom } from '../state/hidden.ts';
import { BoardViewer } from './BoardViewer.tsx';

export const LOADING_BOARD = 'Loading board details...';

/** What the boards page shows once, when a board page was closed for the reader (location state). */
export type BoardsNotice = { notice: string };
const BOARD_EMPTY = 'No pins in this board yet.';

/** The board of the route and its pins (the board page and Manage Pins share them). */
export function useBoard(idParam: string): { id: number | null; board: Board | undefined; deleting: boolean; pins: PagedListView; restoreKey: string } {
  const store = useStore();
  const navigate = useNavigate();
  const id = useParamId(idParam);
  const board = useAtomValue(visibleBoardsByIdAtom)[id ?? 0];
  // Its delete waits for its Undo (Back to its page): it reads as gone.
  const deleting = useAtomValue(hiddenBoardIdsAtom).has(id ?? 0);
  // Removed from this board (live): its page closes, and the boards page says why.
  const lost = useAtomValue(boardsLostAtom).has(id ?? 0);
  useEffect(() => {
    if (lost) void navigate('/boards', { replace: true, state: { notice: MSG.boardRemovedNotice } satisfies BoardsNotice });
  }, [lost, navigate]);
  const source = id === null ? null : boardPinsSource(store, id);
  const pins = usePagedList<BoardPin>({
    key: source?.key ?? null,
    fetchPage: (cursor) => (source ? source.fetchPage(cursor) : Promise.resolve({ items: [], nextCursor: null })),
    keep: keepBoardPins,
    idOf: (pin) => pin.id,
    entities: visibleBoardPinsByIdAtom,
  });
  return { id, board, deleting, pins, restoreKey: `${LIST.board(id ?? 0)}@${useLocation().key}` };
}

/** Board rename rule (docs/product.md §5): the trimmed name, when non-empty and different; else null. */
function renameTarget(current: string, draft: string): string | null {
  const trimmed = draft.trim();
  return trimmed && trimmed !== current ? trimmed : null;
}

/** The board's pins as a grid; `footer` gives each card its remove button. */
export function BoardPinsGrid({ board, pins, restoreKey, footer }: { board: Board; pins: PagedListView; restoreKey: string; footer: (pin: BoardPin) => ReactNode }) {
  const renderCard = useCallback((id: number) => <BoardPinCard pinId={id} footer={footer} />, [footer]);
  return <MasonryGrid label={`Pins in ${board.name}`} ids={pins.ids} renderCard={renderCard} hasMore={pins.hasMore} status={pins.status} loadMore={pins.loadMore} restoreKey={restoreKey} />;
}

function BoardPinCard({ pinId, footer }: { pinId: number; footer: (pin: BoardPin) => ReactNode }) {
  const pin = useEntity(boardPinsByIdAtom, pinId);
  if (!pin) return null;
  return (
    <PinCard
      pinId={pin.id}
      title={pin.title}
      imageUrl={pin.image_url}
      image={pin.image}
      locked={pin.visibility === 'private'}
      actions={<CardSave pin={pin} />}
      more={<CardMore pin={pin} />}
      footer={footer(pin)}
    />
  );
}

export function BoardDetailPage() {
  const { id, board, deleting, pins, restoreKey } = useBoard('boardId');
  const me = useAtomValue(sessionUserAtom);
  const location = useLocation();
  useDocumentTitle(board?.name ?? 'Board');
  if (id === null || deleting) return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  if (!board || pins.status === 'notFound') {
    if (pins.status === 'error') return <LoadFailed failure={pins.failure} onRetry={() => void pins.reload()} />;
    if (pins.status !== 'notFound') return <Loading text={LOADING_BOARD} />;
    // Signed out, only public boards open: any other may be the visitor's own, behind the log-in.
    if (!me) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
    return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  }
  // A public board read from outside (docs/board-sharing.md): the read-only page.
  if (board.role === 'viewer') return <BoardViewer board={board} pins={pins} restoreKey={restoreKey} />;
  return <BoardDetail board={board} pins={pins} restoreKey={restoreKey} />;
}

function BoardDetail({ board, pins, restoreKey }: { board: Board; pins: PagedListView; restoreKey: string }) {
  const store = useStore();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(board.name);
  const [renameError, setRenameError] = useState<string>();
  const [confirmBoard, setConfirmBoard] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const [membersOpen, setMembersOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [bulkOpen, setBulkOpen] = useState(false);
  const me = useAtomValue(sessionUserAtom);
  const invitation = useInvitation(board);
  // Leaving the rename form (OK, Escape) puts the focus back on Rename Board, not on <body>.
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) renameButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  // Rename, delete and member changes are the owner's (the server refuses them to others with 403).
  const isOwner = board.role === 'owner';
  const removeButton = useCallback(
    (pin: BoardPin) => (
      <CardButton className="link-button link-button--danger" onClick={() => setRemoving(pin.id)} aria-label={`Delete Pin ${pin.title} from this board`} title={REMOVE_NOT_DELETE}>
        Delete Pin
      </CardButton>
    ),
    [],
  );

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

  /** The reader left the board: to the boards list, which says so; the board goes from the store after. */
  function leave(notice: string) {
    void navigate('/boards', { state: { notice } satisfies BoardsNotice });
    if (me) runAfterNavigation(() => removeBoardMember(store, board.id, me.id, me.id));
  }

  // Sent when the Undo toast goes (state/deferred-deletes.ts); hidden everywhere until then.
  async function onDeleteBoard() {
    await navigate('/boards'); // the boards page reloads the list (docs/product.md §4)
    deleteLater(store, 'board', board.id, `Board "${board.name}" deleted`);
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
          {isOwner && !editing ? (
            <button type="button" className="button button--secondary" onClick={startEdit} ref={renameButton}>
              Rename Board
            </button>
          ) : null}
          {isOwner ? (
            <button type="button" className="button button--secondary" onClick={() => setShareOpen(true)} aria-haspopup="dialog">
              Share
            </button>
          ) : null}
          <button type="button" className="button button--secondary" onClick={() => setMembersOpen(true)} aria-haspopup="dialog">
            {isOwner ? 'Invite' : 'Members'}
          </button>
          <button type="button" className="button button--secondary" aria-expanded={bulkOpen} onClick={() => setBulkOpen((open) => !open)}>
            Add Images
          </button>
          <Link to={`/boards/${board.id}/manage-pins`} className="button button--secondary">
            Manage Pins
          </Link>
          {isOwner ? (
            <button type="button" className="button button--danger" onClick={() => setConfirmBoard(true)}>
              Delete Board
            </button>
          ) : null}
        </div>
      </header>
      <p className="page-subtitle board-subtitle">
        <span>
          {board.pin_count} {board.pin_count === 1 ? 'pin' : 'pins'}
        </span>
        {board.visibility === 'public' ? <span className="shared-label">Public</span> : null}
        {board.member_count > 1 ? (
          <button type="button" className="board-subtitle__members" onClick={() => setMembersOpen(true)} aria-haspopup="dialog">
            <span className="shared-label">Shared</span>
            <MemberAvatars board={board} />
          </button>
        ) : null}
      </p>
      {board.member_count > 1 ? <BoardPresence boardId={board.id} /> : null}
      <BoardSearch boardId={board.id} />
      {bulkOpen ? <BulkUpload board={{ id: board.id, name: board.name }} /> : null}
      {invitation.state === 'open' ? <InvitationNotice board={board} by={invitation.by} onLeft={leave} /> : null}
      {/* The grid waits for the invitation too: the notice then shows with it and moves nothing. */}
      {!pins.loaded || invitation.state === 'loading' ? (
        pins.status === 'error' ? (
          <LoadFailed failure={pins.failure} onRetry={() => void pins.reload()} />
        ) : (
          <SkeletonGrid text={LOADING_BOARD} />
        )
      ) : pins.ids.length === 0 && !pins.hasMore ? (
        <Empty>
          <p>{BOARD_EMPTY}</p>
          <Link to="/" className="button">
            Find pins to save
          </Link>
        </Empty>
      ) : (
        <BoardPinsGrid board={board} pins={pins} restoreKey={restoreKey} footer={removeButton} />
      )}
      {membersOpen ? <BoardMembersDialog board={board} onClose={() => setMembersOpen(false)} onLeft={() => leave(MSG.boardLeft)} /> : null}
      {shareOpen ? <ShareBoardDialog board={board} onClose={() => setShareOpen(false)} /> : null}
      {confirmBoard ? (
        <ConfirmModal title="Delete Board" message={`Are you sure you want to delete the board "${board.name}"?`} onConfirm={onDeleteBoard} onClose={() => setConfirmBoard(false)} />
      ) : null}
      {removing !== null ? (
        <ConfirmModal
          title="Delete Pin"
          message="Are you sure you want to remove this pin from the board?"
          detail={REMOVE_NOT_DELETE}
          onConfirm={() => removeFromBoard(store, board.id, removing)}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
