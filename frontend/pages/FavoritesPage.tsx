import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import type { Favorite } from '../../contract/index.ts';
import { fetchFavorites, removeFavorite as removeFavoriteCall } from '../api/favorites.ts';
import { HeartIcon } from '../components/Icons.tsx';
import { PinCard, PinGrid } from '../components/PinCard.tsx';
import { Empty, Loading, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { favoritesLoadedAtom } from '../state/atoms.ts';
import { favoriteListAtom, removeFavorite, setAllFavorites } from '../state/favorites.ts';
import { Link } from 'react-router';

const FAVORITES_EMPTY = 'No favorited pin yet!';

export function FavoritesPage() {
  useDocumentTitle('Favorites');
  const store = useStore();
  const favorites = useAtomValue(favoriteListAtom);
  const loaded = useAtomValue(favoritesLoadedAtom);
  const { status, reload } = useLoad(async () => setAllFavorites(store, await fetchFavorites()), 'favorites');

  return (
    <>
      <header className="page-header">
        <h1>Favorites</h1>
      </header>
      {favorites.length > 0 ? (
        <PinGrid label="Favorited pins">
          {favorites.map((fav) => (
            <FavoriteCard key={fav.id} favorite={fav} />
          ))}
        </PinGrid>
      ) : !loaded && status === 'loading' ? (
        <Loading text="Loading favorites..." />
      ) : !loaded && status === 'error' ? (
        <RetryLoad onRetry={reload} />
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

function FavoriteCard({ favorite }: { favorite: Favorite }) {
  const store = useStore();
  const [busy, setBusy] = useState(false);

  async function onRemove() {
    setBusy(true);
    try {
      const removed = await removeFavoriteCall(favorite.id);
      removeFavorite(store, favorite.id, removed.pin_id, removed.likes_count);
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
      footer={
        <button
          type="button"
          className="like-button"
          title="Remove from favorites"
          aria-label={`${favorite.likes_count} ${favorite.likes_count === 1 ? 'like' : 'likes'}, remove ${favorite.title} from favorites`}
          onClick={() => void onRemove()}
          disabled={busy}
        >
          <HeartIcon filled />
          <span>{favorite.likes_count}</span>
        </button>
      }
    />
  );
}
