import { LoadFailed } from '../../components/LoadFailed.tsx';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Board } from '../../../contract/index.ts';
import { fetchProfileBoards } from '../../api/users.ts';
import { BoardCard } from '../../components/boards/BoardCard.tsx';
import { SkeletonGrid } from '../../components/grid/SkeletonGrid.tsx';
import { PagedPinGrid } from '../../components/PagedPinGrid.tsx';

import { useBoardList } from '../../hooks/useBoardList.ts';
import { type PagedListView, usePagedList } from '../../hooks/usePagedList.ts';
import { upsertBoards } from '../../state/boards.ts';
import { visibleBoardsByIdAtom } from '../../state/hidden.ts';
import { LIST } from '../../state/lists.ts';

/** Board cards a profile shows in its row; the Boards page has them all. */
const BOARDS_SHOWN = 6;

/**
 * The boards of a profile the reader may see (docs/profiles.md): on one's own, one's boards (the
 * list the Boards page shares); on someone else's, those both are members of.
 */
export function useProfileBoards(userId: number, own: boolean): PagedListView {
  const mine = useBoardList(own ? userId : undefined);
  const shared = usePagedList<Board>({
    key: own ? null : LIST.profileBoards(userId),
    fetchPage: async (cursor) => {
      const page = await fetchProfileBoards(userId, { cursor, limit: BOARDS_SHOWN });
      return { items: page.boards, nextCursor: page.nextCursor };
    },
    keep: upsertBoards,
    idOf: (board) => board.id,
    entities: visibleBoardsByIdAtom,
  });
  return own ? mine : shared;
}

interface Props {
  boards: PagedListView;
  /** The boards row's heading. */
  boardsTitle: string;
  /** Where "All boards" goes (one's own profile), if anywhere. */
  allBoards?: string;
  pins: PagedListView;
  pinsLabel: string;
  pinsKey: string | null;
  pinsEmpty: ReactNode;
}

/**
 * A profile's boards row and pins grid. Both wait for their first page behind one skeleton and then
 * show together, so the row arriving never pushes a grid that is already there (no layout shift).
 */
export function ProfileSections({ boards, boardsTitle, allBoards, pins, pinsLabel, pinsKey, pinsEmpty }: Props) {
  // Boards that could not be loaded leave their row out; the pins are the page.
  const boardsFailed = !boards.loaded && (boards.status === 'error' || boards.status === 'notFound');
  if (!pins.loaded && (pins.status === 'error' || pins.status === 'notFound')) return <LoadFailed failure={pins.failure} onRetry={() => void pins.reload()} />;
  if (!pins.loaded || (!boards.loaded && !boardsFailed)) return <SkeletonGrid text="Loading pins..." />;
  return (
    <>
      {boards.loaded && boards.ids.length > 0 ? (
        <section className="profile-boards" aria-label={boardsTitle}>
          <div className="profile-boards__head">
            <h2>{boardsTitle}</h2>
            {allBoards ? <Link to={allBoards}>All boards</Link> : null}
          </div>
          <ul className="board-grid profile-boards__list">
            {boards.ids.slice(0, BOARDS_SHOWN).map((id) => (
              <BoardCard key={id} boardId={id} />
            ))}
          </ul>
        </section>
      ) : null}
      <h2 className="profile-pins__title">Pins</h2>
      <PagedPinGrid label={pinsLabel} list={pins} listKey={pinsKey} empty={pinsEmpty} />
    </>
  );
}
