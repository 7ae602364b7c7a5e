import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router';
import type { UserProfile } from '../../contract/index.ts';
import { fetchPinPage } from '../api/pins.ts';
import { lookupUser } from '../api/users.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { usePinList } from '../hooks/usePinList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { LIST } from '../state/lists.ts';
import { ProfileHeader } from './profile/ProfileHeader.tsx';
import { ProfileSections, useProfileBoards } from './profile/ProfileSections.tsx';

export const YOUR_PINS_TITLE = 'Your Awesome Pins!';

/**
 * `/pins` (SPEC: "Your Awesome Pins!", only the user's own pins) is also the user's profile: the
 * profile menu links here, and `/users/<your name>` comes here (docs/profiles.md).
 */
export function YourPinsPage() {
  useDocumentTitle('Your Pins');
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id;
  const key = userId === undefined ? null : LIST.yourPins(userId);
  const [profile, setProfile] = useState<UserProfile | null>(null);
  useLoad(
    async () => {
      if (user) setProfile(await lookupUser(user.username));
    },
    `profile:${user?.username ?? ''}`,
  );
  // The signed-in user's own pins, newest first, fetched by the server's userId filter.
  const list = usePinList(key, (cursor) => fetchPinPage({ userId, cursor }));
  const boards = useProfileBoards(userId ?? 0, true);
  const addPin = (
    <Link to="/pins/new" className="button">
      Add New Pin
    </Link>
  );

  return (
    <>
      <ProfileHeader userId={userId ?? 0} username={user?.username ?? ''} pinCount={profile && profile.id === userId ? profile.pin_count : null} title={YOUR_PINS_TITLE} actions={addPin} />
      <ProfileSections
        boards={boards}
        boardsTitle="Your boards"
        allBoards="/boards"
        pins={list}
        pinsLabel="Your pins"
        pinsKey={key}
        pinsEmpty={
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
