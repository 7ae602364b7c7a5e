import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Favorite } from '../../contract/index.ts';
import type { FavoriteView } from '../state/pin-views.ts';
import { fetchFavoritePage, removeFavorite as removeFavoriteCall } from '../api/favorites.ts';
import { refavorite } from '../hooks/useFavoriteToggle.ts';
import { showToast, undoAction } from '../state/toasts.ts';
import { CardMore, CardSave } from '../components/CardSave.tsx';
import { CardButton } from '../components/grid/card-focus.tsx';
import { MasonryGrid } from '../components/grid/MasonryGrid.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { HeartIcon } from '../components/Icons.tsx';
import { PinCard } from '../components/PinCard.tsx';
import { Empty } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useEntity } from '../hooks/useEntity.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { favoritesByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { visibleFavoritesByIdAtom } from '../state/hidden.ts';
import { removeFavorite, upsertFavorites } from '../state/favorites.ts';
import { LIST } from '../state/lists.ts';

const FAVORITES_EMPTY = 'No favorited pin yet!';

/** A favorite as the save sheet takes a pin. */
const asPin = (favorite: FavoriteView) => ({ id: favorite.pin_id, title: favorite.title, image_url: favorite.image_url, image: favorite.image, visibility: favorite.visibility });

const renderFavorite = (id: number) => <FavoriteCard favoriteId={id} />;

export function FavoritesPage() {
  useDocumentTitle('Favorites');
  const userId = useAtomValue(sessionUserAtom)?.id;
  const location = useLocation();
  const key = userId === undefined ? null : LIST.favorites(userId);
  const list = usePagedList<Favorite>({
    key,
    fetchPage: async (cursor) => {
      const page = await fetchFavoritePage({ cursor });
      return { items: page.pins, nextCursor: page.nextCursor };
    },
    keep: upsertFavorites,
    idOf: (favorite) => favorite.id,
    entities: visibleFavoritesByIdAtom,
  });

  return (
    <>
      <header className="page-header">
        <h1>Favorites</h1>
      </header>
      {list.ids.length > 0 || list.hasMore ? (
        <MasonryGrid
          label="Favorited pins"
          ids={list.ids}
          renderCard={renderFavorite}
          hasMore={list.hasMore}
          status={list.status}
          loadMore={list.loadMore}
          restoreKey={`${key}@${location.key}`}
          loadingText="Loading more favorites..."
        />
      ) : !list.loaded && (list.status === 'error' || list.status === 'notFound') ? (
        <LoadFailed failure={list.failure} onRetry={() => void list.reload()} />
      ) : !list.loaded ? (
        <SkeletonGrid text="Loading favorites..." />
      ) : (
        <Empty>
          <p>{FAVORITES_EMPTY}</p>
          <Link to="/" className="button">
            Browse pins
          </Link>
        </Empty>
      )}
    </>
  );
}

function FavoriteCard({ favoriteId }: { favoriteId: number }) {
  const store = useStore();
  const favorite = useEntity(favoritesByIdAtom, favoriteId);
  const [busy, setBusy] = useState(false);
  if (!favorite) return null;

  async function onRemove(fav: FavoriteView) {
    setBusy(true);
    try {
      const removed = await removeFavoriteCall(fav.id);
      removeFavorite(store, fav.id, removed.pin_id, removed);
      showToast(store, `Removed ${fav.title} from favorites`, { action: undoAction(store, () => refavorite(store, fav.pin_id)) });
    } catch (error) {
      console.error(error);
      setBusy(false);
    }
  }

  return (
    <PinCard
      pinId={favorite.pin_id}
      title={favorite.title}
      imageUrl={favorite.image_url}
      image={favorite.image}
      locked={favorite.visibility === 'private'}
      actions={<CardSave pin={asPin(favorite)} />}
      more={<CardMore pin={asPin(favorite)} />}
      footer={
        <CardButton
          className="like-button"
          title="Remove from favorites"
          aria-label={`${favorite.likes_count} ${favorite.likes_count === 1 ? 'like' : 'likes'}, remove ${favorite.title} from favorites`}
          onClick={() => void onRemove(favorite)}
          disabled={busy}
        >
          <HeartIcon filled />
          <span>{favorite.likes_count}</span>
        </CardButton>
      }
    />
  );
}
