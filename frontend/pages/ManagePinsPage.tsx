import { LoadFailed } from '../components/LoadFailed.tsx';
import { useStore } from 'jotai';
import { useCallback } from 'react';
import { Link } from 'react-router';
import type { BoardPin } from '../../contract/index.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { CardButton } from '../components/grid/card-focus.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { Empty, Loading } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { REMOVE_NOT_DELETE, removeFromBoard } from '../state/board-pin-actions.ts';
import { BoardPinsGrid, LOADING_BOARD, useBoard } from './BoardDetailPage.tsx';

const MANAGE_EMPTY = 'No pins found in this board.';
const MANAGE_CONFIRM = 'Are you sure you want to remove this pin?';

export function ManagePinsPage() {
  const store = useStore();
  const { id, board, deleting, pins, restoreKey } = useBoard('boardId');
  useDocumentTitle(board ? `Manage ${board.name} Pins` : 'Manage Pins');
  const boardId = board?.id;
  const deleteButton = useCallback(
    (pin: BoardPin) => (
      <CardButton
        className="button button--danger button--small"
        onClick={() => {
          if (boardId !== undefined && window.confirm(MANAGE_CONFIRM)) void removeFromBoard(store, boardId, pin.id);
        }}
        aria-label={`Delete ${pin.title}`}
        title={REMOVE_NOT_DELETE}
      >
        Delete
      </CardButton>
    ),
    [store, boardId],
  );

  if (id === null || deleting) return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  if (!board || pins.status === 'notFound') {
    if (pins.status === 'error') return <LoadFailed failure={pins.failure} onRetry={() => void pins.reload()} />;
    if (pins.status !== 'notFound') return <Loading text={LOADING_BOARD} />;
    return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  }

  return (
    <>
      <Link to={`/boards/${board.id}`} className="back-link">
        ← Back to {board.name}
      </Link>
      <header className="page-header">
        <h1>Manage {board.name} Pins</h1>
      </header>
      {!pins.loaded ? (
        pins.status === 'error' ? (
          <LoadFailed failure={pins.failure} onRetry={() => void pins.reload()} />
        ) : (
          <SkeletonGrid text={LOADING_BOARD} />
        )
      ) : pins.ids.length === 0 && !pins.hasMore ? (
        <Empty>
          <p>{MANAGE_EMPTY}</p>
        </Empty>
      ) : (
        <BoardPinsGrid board={board} pins={pins} restoreKey={restoreKey} footer={deleteButton} />
      )}
    </>
  );
}
