import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { fetchPinPage } from '../api/pins.ts';
import { MasonryGrid } from '../components/grid/MasonryGrid.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { renderPinGridCard } from '../components/PinGridCard.tsx';
import { Empty } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePinList } from '../hooks/usePinList.ts';
import { sessionUserAtom, type ById } from '../state/atoms.ts';
import { visiblePinsByIdAtom } from '../state/hidden.ts';
import { LIST, updateList } from '../state/lists.ts';
import { upsertPins } from '../state/pins.ts';
import type { Pin } from '../../contract/index.ts';
import { NewPinsPill } from './home/NewPinsPill.tsx';
import { setNewestId, takeServedPage, useHomeVisit } from './home/visit.ts';

export const HOME_EMPTY = "No pins yet. Let's get creative!";
export const HOME_LOADING = 'Loading pins...';

/** Pins newer than the visit that the grid does not hold yet, newest first. */
function newPinIds(byId: ById<Pin>, listed: readonly number[], newestId: number | null): number[] {
  if (newestId === null) return [];
  const inGrid = new Set(listed);
  const fresh: number[] = [];
  for (const key of Object.keys(byId)) {
    const id = Number(key);
    if (id > newestId && !inGrid.has(id)) fresh.push(id);
  }
  return fresh.sort((a, b) => b - a);
}

export function HomePage() {
  useDocumentTitle(undefined);
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const visitKey = useLocation().key;
  const visit = useHomeVisit(visitKey);
  const key = LIST.home(visitKey);
  const seed = visit?.seed ?? 0;
  // The first page may have come with the HTML (the document's first visit): no request then.
  const list = usePinList(visit ? key : null, async (cursor) => (cursor === null ? takeServedPage(seed) : null) ?? fetchPinPage({ order: 'shuffle', seed, cursor }), {
    // The visit's pages stay as they are: Back returns to the same order at the same card.
    onShow: 'keep',
    // After a reconnect: the pins created meanwhile, for the pill (the grid itself stays put).
    onReconnect: async () => upsertPins(store, (await fetchPinPage({ order: 'newest' })).pins),
  });

  // Which pins are "new" is measured from the newest pin when the visit began.
  const newestId = visit?.newestId ?? null;
  useEffect(() => {
    if (!visit || newestId !== null) return;
    let active = true;
    fetchPinPage({ order: 'newest', limit: 1 })
      .then((page) => active && setNewestId(store, visitKey, page.pins[0]?.id ?? 0))
      .catch((error: unknown) => console.error(error));
    return () => {
      active = false;
    };
  }, [store, visit, visitKey, newestId]);

  const byId = useAtomValue(visiblePinsByIdAtom);
  const fresh = useMemo(() => newPinIds(byId, list.ids, newestId), [byId, list.ids, newestId]);
  const showNew = useCallback(() => {
    updateList(store, key, (current) => ({ ...current, ids: [...fresh, ...current.ids.filter((id) => !fresh.includes(id))] }));
    window.scrollTo({ top: 0 });
  }, [store, key, fresh]);

  return (
    <>
      <h1 className="visually-hidden">All pins</h1>
      <NewPinsPill count={list.loaded ? fresh.length : 0} onShow={showNew} />
      {!list.loaded ? (
        list.status === 'error' || list.status === 'notFound' ? (
          <LoadFailed failure={list.failure} onRetry={() => void list.reload()} />
        ) : (
          <SkeletonGrid text={HOME_LOADING} />
        )
      ) : list.ids.length === 0 && fresh.length === 0 ? (
        <Empty>
          <p>{HOME_EMPTY}</p>
          {user ? (
            <Link to="/pins/new" className="button">
              Add New Pin
            </Link>
          ) : null}
        </Empty>
      ) : (
        <MasonryGrid label="All pins" ids={list.ids} renderCard={renderPinGridCard} hasMore={list.hasMore} status={list.status} loadMore={list.loadMore} restoreKey={key} />
      )}
    </>
  );
}
