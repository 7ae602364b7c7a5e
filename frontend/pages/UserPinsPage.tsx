import { visiblePinsByIdAtom } from '../state/hidden.ts';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { Pin, PublicUser } from '../../contract/index.ts';
import { fetchPinPage } from '../api/pins.ts';
import { lookupUser } from '../api/users.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';
import { PagedPinGrid } from '../components/PagedPinGrid.tsx';
import { RetryLoad } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { LIST } from '../state/lists.ts';
import { upsertPins } from '../state/pins.ts';

/** `/users/:username`: someone's pins, newest first, paged like every list (owner and author names link here). */
export function UserPinsPage() {
  const username = useParams().username ?? '';
  const [user, setUser] = useState<PublicUser | null>(null);
  const { status, reload } = useLoad(async () => {
    setUser(null);
    setUser(await lookupUser(username));
  }, `user:${username}`);
  useDocumentTitle(status === 'notFound' ? 'User not found' : `${username}'s pins`);
  if (status === 'notFound') return <NotFound title="User not found" text="There is no user with this name." />;
  if (status === 'error') return <RetryLoad onRetry={reload} />;
  if (!user || user.username.toLowerCase() !== username.toLowerCase()) return <SkeletonGrid text="Loading pins..." />;
  return <UserPins user={user} />;
}

function UserPins({ user }: { user: PublicUser }) {
  const key = LIST.userPins(user.id);
  const list = usePagedList<Pin>({
    key,
    fetchPage: async (cursor) => {
      const page = await fetchPinPage({ userId: user.id, cursor });
      return { items: page.pins, nextCursor: page.nextCursor };
    },
    keep: upsertPins,
    idOf: (pin) => pin.id,
    entities: visiblePinsByIdAtom,
  });
  return (
    <>
      <header className="page-header">
        <h1>{user.username}'s pins</h1>
      </header>
      <PagedPinGrid label={`Pins by ${user.username}`} list={list} listKey={key} empty={<p>{user.username} has not pinned anything yet.</p>} />
    </>
  );
}
