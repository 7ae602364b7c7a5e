import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { initialsOf } from '../../components/boards/MemberAvatars.tsx';
import { pinsByIdAtom } from '../../state/atoms.ts';
import { hiddenPinIdsAtom } from '../../state/hidden.ts';

/**
 * A profile's pin count as the reader should see it: the server's count, less the pins of this
 * user whose delete waits for its Undo (they have left every list already).
 */
function usePinCount(userId: number, pinCount: number): number {
  const hidden = useAtomValue(hiddenPinIdsAtom);
  const pins = useAtomValue(pinsByIdAtom);
  let waiting = 0;
  for (const id of hidden) if (pins[id]?.user_id === userId) waiting += 1;
  return Math.max(0, pinCount - waiting);
}

interface Props {
  userId: number;
  username: string;
  /** Null until the profile has loaded: the line keeps its place, empty. */
  pinCount: number | null;
  title: string;
  actions?: ReactNode;
}

/** The top of a profile (docs/profiles.md): initials, the title, who it is and how many pins. */
export function ProfileHeader({ userId, username, pinCount, title, actions }: Props) {
  const count = usePinCount(userId, pinCount ?? 0);
  const who = title === username ? '' : `${username} · `;
  return (
    <header className="page-header profile-header">
      <span className="profile-header__avatar" aria-hidden="true">
        {initialsOf(username)}
      </span>
      <div className="profile-header__who">
        <h1>{title}</h1>
        <p className="profile-header__meta">{pinCount === null ? '' : `${who}${count === 1 ? '1 pin' : `${count.toLocaleString()} pins`}`}</p>
      </div>
      {actions ? <div className="page-header__actions">{actions}</div> : null}
    </header>
  );
}
