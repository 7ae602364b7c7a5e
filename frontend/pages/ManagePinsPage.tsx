import { useStore } from 'jotai';
import { Link } from 'react-router';
import { NotFound } from '../components/ErrorPage.tsx';
import { PinCard, PinGrid } from '../components/PinCard.tsx';
import { Empty, Loading, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { LOADING_BOARD, removeFromBoard, useBoard } from './BoardDetailPage.tsx';

const MANAGE_EMPTY = 'No pins found in this board.';
const MANAGE_CONFIRM = 'Are you sure you want to remove this pin?';

export function ManagePinsPage() {
  const store = useStore();
  const { id, board, status, reload } = useBoard('boardId');
  useDocumentTitle(board ? `Manage ${board.name} Pins` : 'Manage Pins');
  if (id === null) return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  if (!board) {
    if (status === 'loading') return <Loading text={LOADING_BOARD} />;
    if (status === 'error') return <RetryLoad onRetry={reload} />;
    return <NotFound title="Board not found" text="This board does not exist or was deleted." />;
  }

  function onDelete(pinId: number) {
    if (!board || !window.confirm(MANAGE_CONFIRM)) return;
    void removeFromBoard(store, board.id, pinId);
  }

  return (
    <>
      <Link to={`/boards/${board.id}`} className="back-link">
        ← Back to {board.name}
      </Link>
      <header className="page-header">
        <h1>Manage {board.name} Pins</h1>
      </header>
      {board.pins.length === 0 ? (
        <Empty>
          <p>{MANAGE_EMPTY}</p>
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
                <button type="button" className="button button--danger button--small" onClick={() => onDelete(pin.id)} aria-label={`Delete ${pin.title}`}>
                  Delete
                </button>
              }
            />
          ))}
        </PinGrid>
      )}
    </>
  );
}
