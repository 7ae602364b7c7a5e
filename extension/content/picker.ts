// The board picker the page shows after Save (the hover button or the context menu): recent boards
// first, then the others; one click on a board saves there. A new board is made inline. The
// title comes from the image's alt text, else the page's title, and can be changed here. Its
// thumbnail is the very bytes that will be uploaded (lib/preview.ts); the boards show, and so
// the saving click can come, only once it is there. An optional alt text goes with the pin; a picture
// the user saved already is not saved until they say Save anyway (docs/duplicates.md).
import { LIMITS } from '../../contract/limits.ts';
import { ask, isFailure } from '../lib/ask.ts';
import { h, fill } from '../lib/dom.ts';
import type { BoardChoices } from '../lib/messages.ts';
import { outcomeText, undoneText } from '../lib/outcome-text.ts';
import { pinTitle } from '../lib/pin-text.ts';
import { loadPreview, type ShownPreview } from '../lib/preview.ts';
import type { BoardRef } from '../lib/settings.ts';
import { savedAlreadyBox } from '../ui/saved-already.ts';
import { showToast } from './toast.ts';
import { uiRoot } from './ui-root.ts';

export interface PickerImage {
  src: string;
  alt: string;
  /** Where the image is on screen, to open beside it (null: top right). */
  rect: DOMRect | null;
}

let openPanel: { close: () => void } | null = null;

export function pickerOpen(): boolean {
  return openPanel !== null;
}

function position(panel: HTMLElement, rect: DOMRect | null): void {
  const width = 320;
  const gap = 12;
  const vw = document.documentElement.clientWidth;
  let left = vw - width - 16;
  if (rect) left = rect.right + gap + width <= vw ? rect.right + gap : rect.left - gap - width >= 0 ? rect.left - gap - width : Math.min(Math.max(8, rect.left), vw - width - 8);
  const top = rect ? Math.min(Math.max(8, rect.top), Math.max(8, window.innerHeight - 420)) : 16;
  panel.style.left = `${Math.max(8, left)}px`;
  panel.style.top = `${top}px`;
}

/** The thumbnail made of the bytes that will be uploaded, or a note that there are none. */
function showPreview(thumb: HTMLImageElement, note: HTMLElement, src: string, pageUrl: string) {
  let released = false;
  let url: string | null = null;
  const ready = loadPreview(src, pageUrl).then((loaded) => {
    url = loaded.url;
    if (url && released) URL.revokeObjectURL(url);
    else if (url) thumb.src = url;
    else {
      note.textContent = `No preview (${loaded.reason}): Pinboard will import the picture from its address.`;
      note.hidden = false;
    }
    return loaded;
  });
  return {
    ready,
    release() {
      released = true;
      if (url) URL.revokeObjectURL(url);
    },
  };
}

export function openPicker(image: PickerImage, server: string): void {
  openPanel?.close();
  const page = { url: location.href, title: document.title };
  const previousFocus = document.activeElement;
  const message = h('p', { class: 'message', role: 'alert' });
  const setMessage = (text: string, error = false) => {
    message.textContent = text;
    message.className = error ? 'message message--error' : 'message';
  };
  const title = h('input', { type: 'text', maxlength: LIMITS.title, value: pinTitle(image.alt, page.title, page.url), 'aria-label': 'Title' });
  const altText = h('input', { type: 'text', maxlength: LIMITS.altText, placeholder: 'What the picture shows (optional)', 'aria-label': 'Alt text' });
  /** Where the warning for a picture saved already goes. */
  const warning = h('div', { class: 'warning' });
  const list = h('div', { class: 'boards', role: 'group', 'aria-label': 'Boards' }, h('p', { class: 'message' }, 'Loading your boards…'));
  const newName = h('input', { type: 'text', maxlength: LIMITS.boardName, placeholder: 'New board name', 'aria-label': 'New board name' });
  const thumb = h('img', { class: 'panel__thumb', alt: '' });
  const note = h('p', { class: 'message', hidden: true });
  const panel = h(
    'div',
    { class: 'ui panel', role: 'dialog', 'aria-label': 'Save to Pinboard' },
    h(
      'div',
      { class: 'panel__head' },
      thumb,
      h('h2', { class: 'panel__title' }, 'Save to Pinboard'),
      h('button', { type: 'button', class: 'icon', 'aria-label': 'Close', onclick: () => close() }, '×'),
    ),
    note,
    h('label', { class: 'field' }, 'Title', title),
    h('label', { class: 'field' }, 'Alt text', altText),
    warning,
    list,
    h(
      'form',
      {
        class: 'create',
        onsubmit: (event: Event) => {
          event.preventDefault();
          void createAndSave();
        },
      },
      newName,
      h('button', { type: 'submit', class: 'pill' }, 'Create'),
    ),
    message,
    h('div', { class: 'panel__foot' }, h('button', { type: 'button', class: 'pill pill--quiet', onclick: () => void save(null) }, 'Save without a board')),
  );
  let busy = false;
  const preview = showPreview(thumb, note, image.src, page.url);
  let shown: ShownPreview | null = null;
  void preview.ready.then((loaded) => (shown = loaded));

  function close() {
    preview.release();
    panel.remove();
    document.removeEventListener('mousedown', onOutside, true);
    if (openPanel === handle) openPanel = null;
    if (previousFocus instanceof HTMLElement) previousFocus.focus({ preventScroll: true });
  }
  const handle = { close };
  // A press anywhere on the page (outside our UI) closes it, as a menu would.
  function onOutside(event: MouseEvent) {
    if (!(event.target instanceof Element && event.target.localName === 'pinboard-extension-ui')) close();
  }
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });

  async function save(board: BoardRef | null, saveAnyway = false) {
    if (busy) return;
    // The last click comes after the preview: what was not shown is not saved.
    if (!shown) return setMessage('The picture is still loading…');
    busy = true;
    setMessage(board ? `Saving to ${board.name}…` : 'Saving…');
    fill(warning);
    const alt = altText.value.trim() ? { altText: altText.value } : {};
    const toSave = { src: image.src, alt: image.alt, title: title.value, ...alt, shown: shown.shown, ...(saveAnyway ? { saveAnyway } : {}) };
    const answer = await ask({ type: 'save', images: [toSave], page, board });
    busy = false;
    if (isFailure(answer)) return setMessage(answer.message, true);
    const [seen] = answer.seen;
    if (seen) {
      setMessage('');
      fill(
        warning,
        savedAlreadyBox(server, seen.duplicate, () => void save(board, true)),
      );
      warning.querySelector('button')?.focus({ preventScroll: true });
      return;
    }
    if (answer.saved.length === 0) return setMessage(outcomeText(answer, board), true);
    close();
    const ids = answer.saved.map((pin) => pin.id);
    showToast(outcomeText(answer, board), {
      undo: { run: () => undo(ids, page.url), undone: undoneText(ids.length) },
      link: { href: `${server}/pins/${ids[0]}`, label: 'View' },
    });
  }

  async function createAndSave() {
    const name = newName.value.trim();
    if (!name || busy) return; // a blank name is ignored, as in the app
    busy = true;
    const answer = await ask({ type: 'create-board', name });
    busy = false;
    if (isFailure(answer)) return setMessage(answer.message, true);
    await save(answer.board);
  }

  function boardButton(board: BoardRef) {
    return h(
      'button',
      { type: 'button', class: 'board', onclick: () => void save(board) },
      h('span', { class: 'board__name' }, board.name),
      h('span', { class: 'board__go', 'aria-hidden': 'true' }, 'Save'),
    );
  }

  function render(choices: BoardChoices, previous: BoardRef[]) {
    const all = [...previous, ...choices.boards];
    const more = choices.nextCursor ? h('button', { type: 'button', class: 'more', onclick: () => void load(choices.nextCursor, all) }, 'More boards') : null;
    fill(
      list,
      choices.recent.length ? h('p', { class: 'boards__label' }, 'Recent') : null,
      ...choices.recent.map(boardButton),
      all.length ? h('p', { class: 'boards__label' }, choices.recent.length ? 'All boards' : 'Your boards') : null,
      ...all.map(boardButton),
      choices.recent.length + all.length === 0 ? h('p', { class: 'message' }, 'You have no boards yet: make one below, or save without a board.') : null,
      more,
    );
  }

  let recent: BoardRef[] = [];
  async function load(cursor: string | null, previous: BoardRef[]) {
    const [answer] = await Promise.all([ask({ type: 'boards', cursor }), preview.ready]);
    if (isFailure(answer)) return fill(list, h('p', { class: 'message message--error' }, answer.message));
    if (!cursor) recent = answer.recent;
    render({ ...answer, recent }, previous);
    if (!cursor) (list.querySelector('button') as HTMLButtonElement | null)?.focus({ preventScroll: true });
  }

  position(panel, image.rect);
  uiRoot().appendChild(panel);
  document.addEventListener('mousedown', onOutside, true);
  openPanel = handle;
  void load(null, []);
}

async function undo(pinIds: number[], pageUrl: string): Promise<string | null> {
  const answer = await ask({ type: 'undo', pinIds, pageUrl });
  return isFailure(answer) ? answer.message : null;
}
