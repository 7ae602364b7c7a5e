import type { Board } from '../../../contract/index.ts';

/** "alice" → "A", "bob.smith" → "BS": one or two letters for a round avatar. */
export function initialsOf(username: string): string {
  const parts = username.split(/[._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[1]].map((p) => [...(p ?? '')][0] ?? '') : [[...username][0] ?? '?'];
  return letters.join('').toUpperCase();
}

/**
 * The members of a shared board as initials avatars (owner first), with "+N" for the rest. The
 * list reads as one phrase to a screen reader ("Shared with 3 people: alice, bob, carol").
 */
export function MemberAvatars({ board }: { board: Pick<Board, 'members' | 'member_count'> }) {
  const more = board.member_count - board.members.length;
  const label = `Shared with ${board.member_count} people: ${board.members.map((m) => m.username).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return (
    <span className="member-avatars" role="img" aria-label={label}>
      {board.members.map((m) => (
        <span key={m.id} className="member-avatar" title={m.username} aria-hidden="true">
          {initialsOf(m.username)}
        </span>
      ))}
      {more > 0 ? (
        <span className="member-avatar member-avatar--more" aria-hidden="true">
          +{more}
        </span>
      ) : null}
    </span>
  );
}
