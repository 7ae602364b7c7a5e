// The popup's board picker: a select with the recent boards first, then the others (newest first,
// more on request), "No board", and "New board…", which shows a name field; the board is made when
// the user saves.
import { LIMITS } from '../../contract/limits.ts';
import { ask, isFailure } from '../lib/ask.ts';
import { h } from '../lib/dom.ts';
import type { BoardRef } from '../lib/settings.ts';

const NONE = '';
const NEW = 'new';
const MORE = 'more';

export function renderBoardSelect() {
  const select = h('select', { id: 'board', disabled: true }, h('option', { value: NONE }, 'Loading boards…'));
  const name = h('input', { type: 'text', maxlength: LIMITS.boardName, placeholder: 'New board name', 'aria-label': 'New board name', hidden: true });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const element = h('div', { class: 'board-field' }, h('label', { for: 'board' }, 'Board'), select, name, error);
  const byId = new Map<string, BoardRef>();
  let cursor: string | null = null;
  let previous = NONE;

  const fail = (text: string) => {
    error.textContent = text;
    error.hidden = !text;
  };

  function option(board: BoardRef) {
    byId.set(String(board.id), board);
    return h('option', { value: board.id }, board.name);
  }

  async function load(): Promise<void> {
    const answer = await ask({ type: 'boards', cursor: null });
    select.replaceChildren();
    if (isFailure(answer)) {
      fail(answer.message);
      select.append(h('option', { value: NONE }, 'No board'));
    } else {
      if (answer.recent.length) select.append(h('optgroup', { label: 'Recent' }, ...answer.recent.map(option)));
      if (answer.boards.length) select.append(h('optgroup', { label: answer.recent.length ? 'All boards' : 'Your boards', id: 'all-boards' }, ...answer.boards.map(option)));
      cursor = answer.nextCursor;
      select.append(h('option', { value: NONE }, 'No board (just save the pins)'), h('option', { value: NEW }, 'New board…'));
      if (cursor) select.append(h('option', { value: MORE }, 'More boards…'));
      const first = answer.recent[0] ?? answer.boards[0];
      select.value = first ? String(first.id) : NONE;
    }
    previous = select.value;
    select.disabled = false;
  }

  async function more(): Promise<void> {
    select.disabled = true;
    const answer = await ask({ type: 'boards', cursor });
    select.disabled = false;
    if (isFailure(answer)) {
      select.value = previous;
      return fail(answer.message);
    }
    cursor = answer.nextCursor;
    const group = select.querySelector('#all-boards') ?? select.insertBefore(h('optgroup', { label: 'All boards', id: 'all-boards' }), select.firstChild);
    group.append(...answer.boards.filter((b) => !byId.has(String(b.id))).map(option));
    if (!cursor) select.querySelector(`option[value="${MORE}"]`)?.remove();
    select.value = answer.boards[0] ? String(answer.boards[0].id) : previous;
    previous = select.value;
  }

  select.addEventListener('change', () => {
    fail('');
    if (select.value === MORE) return void more();
    name.hidden = select.value !== NEW;
    if (select.value === NEW) name.focus();
    previous = select.value;
  });

  /** The board to save to: null for none, undefined when a new one could not be made (the error shows). */
  async function chosenBoard(): Promise<BoardRef | null | undefined> {
    if (select.value === NONE) return null;
    if (select.value !== NEW) return byId.get(select.value) ?? null;
    const wanted = name.value.trim();
    if (!wanted) {
      fail('Name the new board first.');
      name.focus();
      return undefined;
    }
    const answer = await ask({ type: 'create-board', name: wanted });
    if (isFailure(answer)) {
      fail(answer.message);
      return undefined;
    }
    // From now on it is one of the boards (saving again goes there too).
    select.insertBefore(option(answer.board), select.firstChild);
    select.value = String(answer.board.id);
    name.hidden = true;
    name.value = '';
    return answer.board;
  }

  return { element, load, chosenBoard };
}
