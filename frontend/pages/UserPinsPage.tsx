import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { UserProfile } from '../../contract/index.ts';
import { fetchPinPage } from '../api/pins.ts';
import { lookupUser } from '../api/users.ts';
import { NotFound } from '../components/ErrorPage.tsx';
import { SkeletonGrid } from '../components/grid/SkeletonGrid.tsx';

import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { usePinList } from '../hooks/usePinList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { LIST } from '../state/lists.ts';
import { ProfileHeader } from './profile/ProfileHeader.tsx';
import { ProfileSections, useProfileBoards } from './profile/ProfileSections.tsx';
import { YourPinsPage } from './YourPinsPage.tsx';

/**
 * `/users/:username`: someone's profile — their pin count, the boards the reader shares with them,
 * their pins newest first (owner and author names link here). One's own name shows the page of
 * `/pins`, the one page for one's own pins and profile (docs/profiles.md).
 */
export function UserPinsPage() {
  const username = useParams().username ?? '';
  const me = useAtomValue(sessionUserAtom);
  const [user, setUser] = useState<UserProfile | null>(null);
  const { status, failure, reload } = useLoad(async () => {
    setUser(null);
    setUser(await lookupUser(username));
  }, `user:${username}`);
  useDocumentTitle(status === 'notFound' ? 'User not found' : username);
  // One's own name shows one's own profile, the page of /pins (the address stays: a Back, a save
  // finished after a login, come back to it).
  if (me && me.username.toLowerCase() === username.toLowerCase()) return <YourPinsPage />;
  if (status === 'notFound') return <NotFound title="User not found" text="There is no user with this name." />;
  if (status === 'error') return <LoadFailed failure={failure} onRetry={reload} />;
  if (!user || user.username.toLowerCase() !== username.toLowerCase()) return <SkeletonGrid text="Loading pins..." />;
  return <UserProfilePage user={user} />;
}

function UserProfilePage({ user }: { user: UserProfile }) {
  const key = LIST.userPins(user.id);
  const list = usePinList(key, (cursor) => fetchPinPage({ userId: user.id, cursor }));
  const boards = useProfileBoards(user.id, false);
  return (
    <>
      <ProfileHeader userId={user.id} username={user.username} pinCount={user.pin_count} title={user.username} />
      <ProfileSections
        boards={boards}
        boardsTitle={`Boards you share with ${user.username}`}
        pins={list}
        pinsLabel={`Pins by ${user.username}`}
        pinsKey={key}
        pinsEmpty={<p>{user.username} has not pinned anything yet.</p>}
      />
    </>
  );
}
