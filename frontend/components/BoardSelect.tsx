import { useAtomValue } from 'jotai';
import { useId, useState } from 'react';
import type { Board } from '../../contract/boards.ts';
import { VISIBILITY_TEXT, type PinVisibilityValue } from '../../contract/visibility.ts';
import { useWholeBoardList } from '../hooks/useBoardList.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { visibleBoardsByIdAtom } from '../state/hidden.ts';
import { recentBoardIds, recentFirst, rememberBoard } from '../state/save-sheet.ts';
import { LockIcon } from './Icons.tsx';
import './pin-form.css';

/** What the server makes of a new pin sent with this board and no `visibility` (docs/who-sees-what.md). */
export function visibilityFor(board: Pick<Board, 'visibility'> | null | undefined): PinVisibilityValue {
  return board?.visibility === 'private' ? 'private' : 'public';
}

const PUBLIC_TEXT = 'Anyone can see this pin';

/**
 * The boards a new pin may go into: the user's own and those shared with them, every page of them,
 * the recently used first (state/save-sheet.ts).
 */
function useAddableBoards(): { boards: Board[]; loading: boolean; userId: number | undefined } {
  const userId = useAtomValue(sessionUserAtom)?.id;
  // A select cannot say "show more": every page is fetched, one after the other.
  const list = useWholeBoardList(userId);
  const byId = useAtomValue(visibleBoardsByIdAtom);
  const [recent] = useState(() => (userId === undefined ? [] : recentBoardIds(userId)));
  const boards = list.ids.map((id) => byId[id]).filter((board): board is Board => board !== undefined && board.role !== 'viewer');
  return { boards: recentFirst(boards, recent), loading: !list.loaded, userId };
}

/**
 * "Board" on the New Pin form and in the pin builder: No board, or one the user may add to. Under it,
 * who will see the pin, as the server decides it from the board (a private board makes a private pin).
 */
export function BoardSelect({ value, onChange, disabled }: { value: number | null; onChange: (boardId: number | null) => void; disabled?: boolean }) {
  const id = useId();
  const { boards, loading, userId } = useAddableBoards();
  const chosen = boards.find((board) => board.id === value) ?? null;
  const visibility = visibilityFor(chosen);
  return (
    <div className="field board-select">
      <label htmlFor={id} className="field__label">
        Board
      </label>
      <select
        id={id}
        className="field__input board-select__input"
        value={chosen ? String(chosen.id) : ''}
        onChange={(event) => {
          const boardId = event.target.value ? Number(event.target.value) : null;
          // Chosen for a pin: the board counts as recently used (the pickers list it first).
          if (boardId !== null && userId !== undefined) rememberBoard(userId, boardId);
          onChange(boardId);
        }}
        disabled={disabled}
        aria-describedby={`${id}-visibility`}
      >
        <option value="">No board</option>
        {boards.map((board) => (
          <option key={board.id} value={board.id}>
            {board.name}
            {board.member_count > 1 ? ' (shared)' : ''}
          </option>
        ))}
        {loading ? (
          <option value="loading" disabled>
            Loading boards...
          </option>
        ) : null}
      </select>
      <p id={`${id}-visibility`} className={`field__hint board-select__visibility board-select__visibility--${visibility}`} data-visibility={visibility} aria-live="polite">
        {visibility === 'private' ? <LockIcon /> : null}
        <strong>{visibility === 'private' ? 'Private' : 'Public'}:</strong> {visibility === 'private' ? VISIBILITY_TEXT.private : PUBLIC_TEXT}
      </p>
    </div>
  );
}
