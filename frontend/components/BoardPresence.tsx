import { useAtomValue } from 'jotai';
import { boardPresenceAtom } from '../live/presence-state.ts';
import { usePresence } from '../live/presence-hooks.ts';
import { sessionUserAtom } from '../state/atoms.ts';

export const BOARD_PRESENCE_LABEL = 'Also here now';

/**
 * The board's other members who have it open now (docs/board-sharing.md), live; mount it on a board's page.
 * Only members may join (the server refuses anyone else, who then sees nothing); the signed-in
 * user is left out of the list: it is "who else is here".
 */
export function BoardPresence({ boardId }: { boardId: number }) {
  usePresence({ boardId });
  const me = useAtomValue(sessionUserAtom)?.id;
  const others = (useAtomValue(boardPresenceAtom).get(boardId) ?? []).filter((user) => user.id !== me);
  if (others.length === 0) return null;
  return (
    <div className="board-presence" role="status" aria-live="polite">
      <span className="board-presence__label">{BOARD_PRESENCE_LABEL}:</span>
      <ul className="board-presence__users" aria-label={BOARD_PRESENCE_LABEL}>
        {others.map((user) => (
          <li key={user.id} className="board-presence__user" title={user.username}>
            <span className="board-presence__avatar" aria-hidden="true">
              {user.username.slice(0, 1).toUpperCase()}
            </span>
            {user.username}
          </li>
        ))}
      </ul>
    </div>
  );
}
