import { LoadFailed } from '../components/LoadFailed.tsx';
import { useCallback } from 'react';
import { Link } from 'react-router';
import type { Board } from '../../contract/index.ts';
import { Empty } from '../components/Status.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import type { PagedListView } from '../hooks/usePagedList.ts';
import { BoardPinsGrid, LOADING_BOARD } from './BoardDetailPage.tsx';
import { BoardSearch } from './BoardSearch.tsx';

/**
 * A public board seen by someone who is not a member (`role` viewer; docs/board-sharing.md):
 * read-only — no rename, members, uploads, managing or removing — with its owner named and a way
 * back to their profile. Its pins can still be saved to one's own boards, like any pin.
 */
export function BoardViewer({ board, pins, restoreKey }: { board: Board; pins: PagedListView; restoreKey: string }) {
  const owner = board.members.find((member) => member.id === board.user_id);
  const noFooter = useCallback(() => null, []);
  return (
    <>
      {owner ? (
        <Link to={`/users/${encodeURIComponent(owner.username)}`} className="back-link">
          ← {owner.username}’s profile
        </Link>
      ) : null}
      <header className="page-header page-header--board">
        <h1>{board.name}</h1>
      </header>
      <p className="page-subtitle board-subtitle">
        <span>
          {board.pin_count} {board.pin_count === 1 ? 'pin' : 'pins'}
        </span>
        <span className="shared-label">Public board{owner ? ` by ${owner.username}` : ''}</span>
      </p>
      <BoardSearch boardId={board.id} />
      {!pins.loaded ? (
        pins.status === 'error' ? (
          <LoadFailed failure={pins.failure} onRetry={() => void pins.reload()} />
        ) : (
          <SkeletonGrid text={LOADING_BOARD} />
        )
      ) : pins.ids.length === 0 && !pins.hasMore ? (
        <Empty>
          <p>No pins in this board yet.</p>
        </Empty>
      ) : (
        <BoardPinsGrid board={board} pins={pins} restoreKey={restoreKey} footer={noFooter} />
      )}
    </>
  );
}
