import { useEffect } from 'react';
import type { Board } from '../../contract/index.ts';
import { fetchBoardPage } from '../api/boards.ts';
import { upsertBoards } from '../state/boards.ts';
import { visibleBoardsByIdAtom } from '../state/hidden.ts';
import { LIST } from '../state/lists.ts';
import { type PagedListView, usePagedList } from './usePagedList.ts';

/**
 * The signed-in user's boards, page by page: one list shared by the Boards page and the Add To
 * Board dropdown, so a board created in one shows in the other.
 */
export function useBoardList(userId: number | undefined, onShow: 'keep' | 'reload' = 'reload'): PagedListView {
  return usePagedList<Board>({
    key: userId === undefined ? null : LIST.boards(userId),
    fetchPage: async (cursor) => {
      const page = await fetchBoardPage({ cursor });
      return { items: page.boards, nextCursor: page.nextCursor };
    },
    keep: upsertBoards,
    idOf: (board) => board.id,
    entities: visibleBoardsByIdAtom,
    onShow,
  });
}

/**
 * Every page of the user's boards, fetched one after the other while a picker is shown: a picker
 * filters by name and puts the recently used first, which needs them all (not "show more").
 */
export function useWholeBoardList(userId: number | undefined): PagedListView {
  const list = useBoardList(userId, 'keep');
  const { hasMore, status, loadMore } = list;
  useEffect(() => {
    if (hasMore && status === 'ready') loadMore();
  }, [hasMore, status, loadMore]);
  return list;
}
