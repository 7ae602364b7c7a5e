// Being added to a board is never silent (docs/board-sharing.md, "Consent"): the new member's tab
// says who added them (a toast, and a notice on the board with Leave and Block at hand) until they
// acknowledge it. The acknowledgement is kept in localStorage per user and board, so the notice is
// not shown again on the next visit.
import type { BoardMember, PublicUser } from '../../contract/index.ts';
import type { Store } from './store.ts';
import { showToast } from './toasts.ts';

/** Who added a member: `added_by` (null for the owner and for members added before it was kept). */
export function adderOf(member: BoardMember | undefined): PublicUser | null {
  return member?.added_by ?? null;
}

const key = (userId: number, boardId: number) => `pinboard.invitation-seen.${userId}.${boardId}`;

export function invitationSeen(userId: number, boardId: number): boolean {
  try {
    return localStorage.getItem(key(userId, boardId)) === '1';
  } catch {
    return false;
  }
}

export function markInvitationSeen(userId: number, boardId: number): void {
  try {
    localStorage.setItem(key(userId, boardId), '1');
  } catch {
    // storage blocked: the notice simply shows again next time
  }
}

/** The live event that this tab's user was added to a board: a toast that opens it. */
export function announceInvitation(store: Store, boardId: number, boardName: string, member: BoardMember): void {
  const by = adderOf(member);
  showToast(store, by ? `${by.username} added you to “${boardName}”` : `You were added to “${boardName}”`, {
    link: { label: 'Open', to: `/boards/${boardId}` },
  });
}
