import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { PagedListView } from '../hooks/usePagedList.ts';
import { MasonryGrid } from './grid/MasonryGrid.tsx';
import { SkeletonGrid } from './grid/SkeletonGrid.tsx';
import { LoadFailed } from './LoadFailed.tsx';
import { renderPinGridCard } from './PinGridCard.tsx';
import { Empty } from './Status.tsx';

/**
 * A paged list of pins as a grid, with its loading, error and empty states (a user's pins, your
 * pins). A failure says what happened; an offline one loads by itself when the connection returns.
 */
export function PagedPinGrid({ label, list, listKey, empty }: { label: string; list: PagedListView; listKey: string | null; empty: ReactNode }) {
  const location = useLocation();
  if (list.ids.length > 0 || list.hasMore) {
    return (
      <>
        <MasonryGrid label={label} ids={list.ids} renderCard={renderPinGridCard} hasMore={list.hasMore} status={list.status} loadMore={list.loadMore} restoreKey={`${listKey}@${location.key}`} />
        {list.status === 'error' ? <LoadFailed failure={list.failure} compact /> : null}
      </>
    );
  }
  if (!list.loaded && list.status === 'notFound') return <LoadFailed failure={undefined} onRetry={() => void list.reload()} />;
  if (!list.loaded && list.status === 'error') return <LoadFailed failure={list.failure} onRetry={() => void list.reload()} />;
  if (!list.loaded) return <SkeletonGrid text="Loading pins..." />;
  return <Empty>{empty}</Empty>;
}
