import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue } from 'jotai';
import { Link, useLocation } from 'react-router';
import { BoardCard } from '../components/boards/BoardCard.tsx';
import { ShowMore } from '../components/ShowMore.tsx';
import { Empty, Loading } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useBoardList } from '../hooks/useBoardList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import type { BoardsNotice } from './BoardDetailPage.tsx';

export const BOARDS_EMPTY = 'No boards found.';
export function BoardsPage() {
  useDocumentTitle('Boards');
  const userId = useAtomValue(sessionUserAtom)?.id;
  const list = useBoardList(userId);
  // Set by a board page that closed for this reader (removed from a shared board, or left it).
  const notice = (useLocation().state as Partial<BoardsNotice> | null)?.notice;

  return (
    <>
      <header className="page-header">
        <h1>Boards</h1>
        <Link to="/boards/create" className="button">
          Add New Board
        </Link>
      </header>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {list.ids.length > 0 ? (
        <>
          <ul className="board-grid" aria-label="Your boards">
            {list.ids.map((id) => (
              <BoardCard key={id} boardId={id} />
            ))}
          </ul>
          <ShowMore hasMore={list.hasMore} status={list.status} onMore={list.loadMore} text="Show more boards" loadingText="Loading boards..." />
        </>
      ) : !list.loaded && list.status !== 'error' && list.status !== 'notFound' ? (
        <Loading text="Loading boards..." />
      ) : !list.loaded ? (
        <LoadFailed failure={list.failure} onRetry={() => void list.reload()} />
      ) : list.hasMore ? (
        <ShowMore hasMore status={list.status} onMore={list.loadMore} text="Show more boards" loadingText="Loading boards..." />
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
