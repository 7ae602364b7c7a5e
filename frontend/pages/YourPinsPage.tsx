import { useAtomValue } from 'jotai';
import { Link, useLocation } from 'react-router';
import type { Pin } from '../../contract/index.ts';
import { fetchPinPage } from '../api/pins.ts';
import { MasonryGrid } from '../components/grid/MasonryGrid.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { renderPinGridCard } from '../components/PinGridCard.tsx';
import { Empty, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { pinsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { LIST } from '../state/lists.ts';
import { upsertPins } from '../state/pins.ts';

export function YourPinsPage() {
  useDocumentTitle('Your Pins');
  const user = useAtomValue(sessionUserAtom);
  const location = useLocation();
  const userId = user?.id;
  const key = userId === undefined ? null : LIST.yourPins(userId);
  // The signed-in user's own pins, newest first, fetched by the server's userId filter.
  const list = usePagedList<Pin>({
    key,
    fetchPage: async (cursor) => {
      const page = await fetchPinPage({ userId, cursor });
      return { items: page.pins, nextCursor: page.nextCursor };
    },
    keep: upsertPins,
    idOf: (pin) => pin.id,
    entities: pinsByIdAtom,
  });

  return (
    <>
      <header className="page-header">
        <h1>Your Awesome Pins!</h1>
        <Link to="/pins/new" className="button">
          Add New Pin
        </Link>
      </header>
      {list.ids.length > 0 || list.hasMore ? (
        <MasonryGrid
          label="Your pins"
          ids={list.ids}
          renderCard={renderPinGridCard}
          hasMore={list.hasMore}
          status={list.status}
          loadMore={list.loadMore}
          restoreKey={`${key}@${location.key}`}
        />
      ) : !list.loaded && (list.status === 'error' || list.status === 'notFound') ? (
        <RetryLoad onRetry={() => void list.reload()} />
      ) : !list.loaded ? (
        <SkeletonGrid text="Loading pins..." />
      ) : (
        <Empty>
          <p>You haven't created any pins yet.</p>
          <Link to="/pins/new" className="button">
            Create your first pin
          </Link>
        </Empty>
      )}
    </>
  );
}
