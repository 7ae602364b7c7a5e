import { useAtomValue, useStore } from 'jotai';
import { Link } from 'react-router';
import { fetchBoards } from '../api/boards.ts';
import { PinImage } from '../components/PinImage.tsx';
import { Empty, Loading, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { boardsLoadedAtom } from '../state/atoms.ts';
import { boardListAtom, formatPinCount, setAllBoards } from '../state/boards.ts';

const BOARDS_EMPTY = 'No boards found.';

export function BoardsPage() {
  useDocumentTitle('Boards');
  const store = useStore();
  const boards = useAtomValue(boardListAtom);
  const loaded = useAtomValue(boardsLoadedAtom);
  const { status, reload } = useLoad(async () => setAllBoards(store, await fetchBoards()), 'boards');

  return (
    <>
      <header className="page-header">
        <h1>Boards</h1>
        <Link to="/boards/create" className="button">
          Add New Board
        </Link>
      </header>
      {boards.length > 0 ? (
        <ul className="board-grid" aria-label="Your boards">
          {boards.map((board) => {
            const cover = board.pins[0];
            return (
              <li key={board.id} className="board-card">
                <Link to={`/boards/${board.id}`} className="board-card__link">
                  <div className="board-card__cover">
                    {cover ? <PinImage src={cover.image_url} alt="" /> : <div className="board-card__no-image">No Image</div>}
                  </div>
                  <div className="board-card__body">
                    <span className="board-card__name">{board.name}</span>
                    <span className="board-card__count" aria-label={`${board.pins.length} ${board.pins.length === 1 ? 'pin' : 'pins'}`}>
                      {formatPinCount(board.pins.length)}
                    </span>
                  </div>
                </Link>
              </li>
            );
          })}
        </ul>
      ) : !loaded && status === 'loading' ? (
        <Loading text="Loading boards..." />
      ) : !loaded && status === 'error' ? (
        <RetryLoad onRetry={reload} />
      ) : (
        <Empty>
          <p>{BOARDS_EMPTY}</p>
          <Link to="/boards/create" className="button">
            Create a board
          </Link>
        </Empty>
      )}
    </>
  );
}
