import { useAtomValue, useStore } from 'jotai';
import { Link } from 'react-router';
import type { Pin, User } from '../../contract/index.ts';
import { fetchPins } from '../api/pins.ts';
import { HeartButton } from '../components/HeartButton.tsx';
import { PinCard, PinGrid } from '../components/PinCard.tsx';
import { Empty, Loading, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { pinsLoadedAtom, sessionUserAtom } from '../state/atoms.ts';
import { ensureHomeOrder, homePinsAtom, setAllPins } from '../state/pins.ts';

const HOME_EMPTY = "No pins yet. Let's get creative!";

export function PinGridCard({ pin, user }: { pin: Pin; user: User | null }) {
  return (
    <PinCard
      pinId={pin.id}
      title={pin.title}
      imageUrl={pin.image_url}
      actions={user ? <HeartButton pinId={pin.id} title={pin.title} /> : null}
      footer={
        <>
          <span className="pin-card__author">{pin.user.username}</span>
          {user?.id === pin.user_id ? (
            <Link to={`/pins/${pin.id}/edit`} className="pin-card__edit" aria-label={`Edit ${pin.title}`}>
              Edit
            </Link>
          ) : null}
        </>
      }
    />
  );
}

export function HomePage() {
  useDocumentTitle(undefined);
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const pins = useAtomValue(homePinsAtom);
  const loaded = useAtomValue(pinsLoadedAtom);
  const { status, reload } = useLoad(async () => {
    setAllPins(store, await fetchPins());
    ensureHomeOrder(store); // shuffled once per visit, after the pins first load
  }, 'home');

  return (
    <>
      <h1 className="visually-hidden">All pins</h1>
      {!loaded || pins.length === 0 ? (
        status === 'loading' ? (
          <Loading text="Loading pins..." />
        ) : status === 'ready' || loaded ? (
          <Empty>
            <p>{HOME_EMPTY}</p>
            {user ? (
              <Link to="/pins/new" className="button">
                Add New Pin
              </Link>
            ) : null}
          </Empty>
        ) : (
          <RetryLoad onRetry={reload} />
        )
      ) : (
        <PinGrid label="All pins">
          {pins.map((pin) => (
            <PinGridCard key={pin.id} pin={pin} user={user} />
          ))}
        </PinGrid>
      )}
    </>
  );
}
