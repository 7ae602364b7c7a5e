import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Board, BoardMember } from '../../../contract/index.ts';
import { addBoardMember as addMemberCall, fetchBoardMembers, removeBoardMember as removeMemberCall } from '../../api/boards.ts';
import { boardMembersAtom, sessionUserAtom } from '../../state/atoms.ts';
import { addMemberLocally, removeBoardMember, setBoardMembers } from '../../state/board-members.ts';
import { adderOf } from '../../state/invitations.ts';
import { Modal } from '../Modal.tsx';
import { Loading } from '../Status.tsx';
import { initialsOf } from './MemberAvatars.tsx';
import { UserPicker } from './UserPicker.tsx';

export const MEMBERS_TITLE = 'Members';

type Props = {
  board: Board;
  onClose: () => void;
  /** A collaborator left: the page goes back to the boards list. */
  onLeft: () => void;
};

/** The board's members as the store holds them (kept live by the member events), read once on open. */
function useMembers(boardId: number) {
  const store = useStore();
  const members = useAtomValue(boardMembersAtom)[boardId];
  const [status, setStatus] = useState<'loading' | 'error' | 'ready'>(members ? 'ready' : 'loading');
  const load = useCallback(async () => {
    setStatus('loading');
    try {
      setBoardMembers(store, boardId, await fetchBoardMembers(boardId));
      setStatus('ready');
    } catch (error) {
      console.error(error);
      setStatus('error');
    }
  }, [store, boardId]);
  useEffect(() => {
    void load();
  }, [load]);
  return { members, status, load };
}

/** One member: initials, name, role (and who added a collaborator), and Remove for the owner. */
function MemberRow({ member, isMe, onRemove, busy }: { member: BoardMember; isMe: boolean; onRemove: (() => void) | undefined; busy: boolean }) {
  const adder = adderOf(member);
  return (
    <li className="member-list__item">
      <span className="member-avatar" aria-hidden="true">
        {initialsOf(member.username)}
      </span>
      <span className="member-list__name">
        {member.username}
        {isMe ? ' (you)' : ''}
      </span>
      <span className="member-list__role">{member.role === 'owner' ? 'Owner' : `Collaborator${adder ? ` · added by ${adder.username}` : ''}`}</span>
      {onRemove ? (
        <button type="button" className="link-button link-button--danger" onClick={onRemove} disabled={busy} aria-label={`Remove ${member.username}`}>
          Remove
        </button>
      ) : null}
    </li>
  );
}

/**
 * A board's members (docs/board-sharing.md). Everyone on the board sees the list (kept live by the member
 * events); the owner adds people by username (type-ahead) and removes them; a collaborator can
 * leave.
 */
export function BoardMembersDialog({ board, onClose, onLeft }: Props) {
  const store = useStore();
  const me = useAtomValue(sessionUserAtom);
  const { members, status, load } = useMembers(board.id);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [rowError, setRowError] = useState<string>();
  const isOwner = board.role === 'owner';

  const memberIds = useMemo(() => new Set((members ?? []).map((m) => m.id)), [members]);

  async function add(username: string) {
    const member = await addMemberCall(board.id, username);
    // The live event does the same (idempotently); this shows it without waiting for it.
    addMemberLocally(store, board.id, member);
  }

  async function remove(member: BoardMember) {
    setBusyId(member.id);
    setRowError(undefined);
    try {
      await removeMemberCall(board.id, member.id);
      if (member.id === me?.id) {
        onLeft();
        return;
      }
      removeBoardMember(store, board.id, member.id, me?.id);
    } catch (error) {
      console.error(error);
      setRowError(error instanceof Error ? error.message : 'Something went wrong.');
    } finally {
      setBusyId(null);
    }
  }

  return (
    <Modal title={MEMBERS_TITLE} onClose={onClose} className="modal--members">
      {isOwner ? <UserPicker onAdd={add} exclude={memberIds} /> : null}
      {status === 'loading' && !members ? (
        <Loading text="Loading members..." />
      ) : status === 'error' && !members ? (
        <div className="status">
          <p role="alert">Could not load the members.</p>
          <button type="button" className="button button--secondary" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : (
        <ul className="member-list" aria-label={`Members of ${board.name}`}>
          {(members ?? []).map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              isMe={member.id === me?.id}
              onRemove={isOwner && member.role === 'collaborator' ? () => void remove(member) : undefined}
              busy={busyId === member.id}
            />
          ))}
          {members && members.length === 1 && isOwner ? <li className="member-list__empty">Only you so far. Add people to curate this board together.</li> : null}
        </ul>
      )}
      {rowError ? (
        <p className="field__error" role="alert">
          {rowError}
        </p>
      ) : null}
      <div className="modal__actions">
        {!isOwner && me ? (
          <button type="button" className="button button--danger" onClick={() => void remove({ id: me.id, username: me.username, role: 'collaborator', added_by: null })} disabled={busyId === me.id}>
            Leave board
          </button>
        ) : null}
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
