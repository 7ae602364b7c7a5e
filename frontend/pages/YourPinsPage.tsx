import { useAtomValue, useStore } from 'jotai';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { fetchPins } from '../api/pins.ts';
import { PinGrid } from '../components/PinCard.tsx';
import { Empty, Loading, RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { pinsLoadedAtom, sessionUserAtom } from '../state/atoms.ts';
import { pinListAtom, setAllPins } from '../state/pins.ts';
import { PinGridCard } from './HomePage.tsx';

export function YourPinsPage() {
  useDocumentTitle('Your Pins');
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const all = useAtomValue(pinListAtom);
  const loaded = useAtomValue(pinsLoadedAtom);
  const pins = useMemo(() => all.filter((pin) => pin.user_id === user?.id), [all, user?.id]);
  const { status, reload } = useLoad(async () => setAllPins(store, await fetchPins()), 'your-pins');

  return (
    <>
      <header className="page-header">
        <h1>Your Awesome Pins!</h1>
        <Link to="/pins/new" className="button">
          Add New Pin
        </Link>
      </header>
      {pins.length > 0 ? (
        <PinGrid label="Your pins">
          {pins.map((pin) => (
            <PinGridCard key={pin.id} pin={pin} user={user} />
          ))}
        </PinGrid>
      ) : status === 'loading' && !loaded ? (
        <Loading text="Loading pins..." />
      ) : status === 'error' && !loaded ? (
        <RetryLoad onRetry={reload} />
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
