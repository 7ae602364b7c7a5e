import { useLocation } from 'react-router';
import { fetchRelatedPage } from '../api/search.ts';
import { MasonryGrid } from '../components/grid/MasonryGrid.tsx';
import { renderPinGridCard } from '../components/PinGridCard.tsx';
import { usePinList } from '../hooks/usePinList.ts';
import { SEARCH_LIST } from './lists.ts';
import './search.css';

/**
 * The end of a pin's page: pins like it (sharing its tags, or boards the reader is on), best first,
 * in the home grid's masonry, loading more as the reader scrolls; Back from one of them returns to
 * the same card. Nothing is shown when nothing is like it.
 */
export function MoreLikeThis({ pinId }: { pinId: number }) {
  const location = useLocation();
  const key = SEARCH_LIST.related(pinId);
  const list = usePinList(key, (cursor) => fetchRelatedPage(pinId, { cursor }));
  if (list.ids.length === 0 && !list.hasMore) return null;
  return (
    <div className="more-like-this">
      <h2>More like this</h2>
      <MasonryGrid label="More like this" ids={list.ids} renderCard={renderPinGridCard} hasMore={list.hasMore} status={list.status} loadMore={list.loadMore} restoreKey={`${key}@${location.key}`} />
    </div>
  );
}
