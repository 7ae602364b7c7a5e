import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import type { Board } from '../../../contract/index.ts';
import { blockUser } from '../../api/blocks.ts';
import { fetchBoardMembers, removeBoardMember as leaveCall } from '../../api/boards.ts';
import { isApiError } from '../../api/client.ts';
import { boardMembersAtom, sessionUserAtom } from '../../state/atoms.ts';
import { setBoardMembers } from '../../state/board-members.ts';
import { adderOf, invitationSeen, markInvitationSeen } from '../../state/invitations.ts';
import type { PublicUser } from '../../../contract/index.ts';

/** Where a collaborator's invitation stands on their board's page. */
export type Invitation = { state: 'loading' } | { state: 'none' } | { state: 'open'; by: PublicUser | null };

/**
 * A collaborator who has not acknowledged being added to this board is told who added them
 * (their member row's `added_by`, docs/board-sharing.md). Loads the board's members for that once.
 */
export function useInvitation(board: Board): Invitation {
  const store = useStore();
  const me = useAtomValue(sessionUserAtom);
  const members = useAtomValue(boardMembersAtom)[board.id];
  const [seen, setSeen] = useState(() => !me || board.role !== 'collaborator' || invitationSeen(me.id, board.id));
  const wanted = !seen && members === undefined;
  useEffect(() => {
    if (!wanted) return;
    fetchBoardMembers(board.id)
      .then((list) => setBoardMembers(store, board.id, list))
      .catch((error: unknown) => {
        console.error(error);
        setSeen(true); // not knowing who added them must not hold the page back
      });
  }, [store, board.id, wanted]);
  if (seen || !me) return { state: 'none' };
  if (!members) return { state: 'loading' };
  return { state: 'open', by: adderOf(members.find((member) => member.id === me.id)) };
}

interface Props {
  board: Board;
  by: PublicUser | null;
  /** The reader left (and perhaps blocked): the page goes to the boards list with this message. */
  onLeft: (message: string) => void;
}

/** "X added you to this board", with Leave, Leave and block X, and Got it. */
export function InvitationNotice({ board, by, onLeft }: Props) {
  const me = useAtomValue(sessionUserAtom);
  const [gone, setGone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!me || gone) return null;

  async function act(work: () => Promise<unknown>, message: string) {
    setBusy(true);
    setError(null);
    try {
      await work();
      if (me) markInvitationSeen(me.id, board.id);
      onLeft(message);
    } catch (failure) {
      console.error(failure);
      setError(isApiError(failure) ? failure.message : 'Something went wrong.');
      setBusy(false);
    }
  }

  return (
    <section className="notice invitation" aria-label="Invitation">
      <p>{by ? `${by.username} added you to this board.` : 'You were added to this board.'}</p>
      <div className="invitation__actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            markInvitationSeen(me.id, board.id);
            setGone(true);
          }}
          disabled={busy}
        >
          Got it
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => void act(() => leaveCall(board.id, me.id), 'You left the board.')} disabled={busy}>
          Leave board
        </button>
        {by ? (
          <button
            type="button"
            className="button button--danger button--small"
            onClick={() => void act(() => blockUser(by.id, board.id), `You left the board and blocked ${by.username}.`)}
            disabled={busy}
          >
            Leave and block {by.username}
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
