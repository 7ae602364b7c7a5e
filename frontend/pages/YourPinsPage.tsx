import { useAtomValue } from 'jotai';
import { Link } from 'react-router';
import type { Pin } from '../../contract/index.ts';
import { fetchPinPage } from '../api/pins.ts';
import { PagedPinGrid } from '../components/PagedPinGrid.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { visiblePinsByIdAtom } from '../state/hidden.ts';
import { LIST } from '../state/lists.ts';
import { upsertPins } from '../state/pins.ts';

export function YourPinsPage() {
  useDocumentTitle('Your Pins');
  const user = useAtomValue(sessionUserAtom);
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
    entities: visiblePinsByIdAtom,
  });

  return (
    <>
      <header className="page-header">
        <h1>Your Awesome Pins!</h1>
        <Link to="/pins/new" className="button">
          Add New Pin
        </Link>
      </header>
      <PagedPinGrid
        label="Your pins"
        list={list}
        listKey={key}
        empty={
          <>
            <p>You haven't created any pins yet.</p>
            <Link to="/pins/new" className="button">
              Create your first pin
            </Link>
          </>
        }
      />
    </>
  );
}
