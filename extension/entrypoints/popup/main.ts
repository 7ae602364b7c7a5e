// The toolbar popup: the page's images, largest first, any number selected, saved at once to one
// board (recent boards first, or a new one made here). The background does the saving, so
// closing the popup does not stop it. Each tile shows the very bytes that will be uploaded
// (lib/preview.ts), and Save waits until every chosen tile has shown them.
import { browser } from '../../lib/browser.ts';
import { ask, isFailure } from '../../lib/ask.ts';
import { fill, h } from '../../lib/dom.ts';
import type { ContentRequest, ImageList, PageImage, Status } from '../../lib/messages.ts';
import { boardLabel, outcomeText, undoneText } from '../../lib/outcome-text.ts';
import { loadPreview, type ShownPreview } from '../../lib/preview.ts';
import { renderBoardSelect } from '../../ui/board-select.ts';
import { header } from '../../ui/header.ts';
import { savedAlreadyBox } from '../../ui/saved-already.ts';
import { SAVED_ALREADY } from '../../../contract/duplicate-rules.ts';
import type { ImageToSave } from '../../lib/save.ts';

const app = document.getElementById('app') as HTMLElement;

/** The page's tab: the active one, or the one named by `?tab=` when the popup is open as a page. */
async function targetTab(): Promise<number | null> {
  const named = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(named) && named > 0) return named;
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

function notice(text: string, ...actions: HTMLElement[]) {
  fill(app, header(), h('section', { class: 'notice' }, h('p', {}, text), ...actions));
}

function openOptions() {
  void browser.runtime.openOptionsPage();
  window.close();
}

async function start() {
  const status = (await ask({ type: 'status' })) as Status;
  if (!status.username) {
    const text = status.server ? `Connect the extension to your account on ${status.server} to save images.` : 'Set up the extension with your Pinboard’s address to save images.';
    return notice(text, h('button', { type: 'button', class: 'button', onclick: openOptions }, 'Set up'));
  }
  const tabId = await targetTab();
  let list: ImageList | undefined;
  try {
    const request: ContentRequest = { type: 'list-images' };
    list = tabId === null ? undefined : ((await browser.tabs.sendMessage(tabId, request, { frameId: 0 })) as ImageList);
  } catch {
    list = undefined;
  }
  if (!list) return notice('Pinboard cannot read this page’s images. Pages of the browser itself cannot be saved from; for any other page, reload it and try again.');
  if (list.page.url.startsWith(`${status.server}/`)) return notice('This is your Pinboard: save pins here with their own Save buttons.');
  if (list.images.length === 0) return notice('No images on this page are large enough to save.');
  showImages(list, status);
}

interface Tile {
  image: PageImage;
  box: HTMLInputElement;
  tile: HTMLElement;
  /** Null until the preview is in. */
  preview: ShownPreview | null;
}

/** A tile, its picture filled in from the bytes the background fetched (`onPreview` then). */
function makeTile(image: PageImage, pageUrl: string, onPreview: () => void): Tile {
  const box = h('input', { type: 'checkbox', class: 'tile__check' });
  const label = image.alt || `Image ${image.width} × ${image.height}`;
  box.setAttribute('aria-label', `${label} (${image.width} × ${image.height})`);
  const picture = h('img', { alt: '' });
  const size = h('span', { class: 'tile__size' }, `${image.width} × ${image.height}`);
  const tile: Tile = { image, box, tile: h('label', { class: 'tile' }, box, picture, size), preview: null };
  void loadPreview(image.src, pageUrl).then((loaded) => {
    tile.preview = loaded;
    if (loaded.url) picture.src = loaded.url;
    else {
      // Nothing to show: saving it asks the server to import the address.
      size.textContent = `${image.width} × ${image.height} · no preview`;
      tile.tile.title = `No preview (${loaded.reason}): Pinboard will import the picture from its address.`;
    }
    onPreview();
  });
  return tile;
}

/** Saved pictures are marked and let go, so a second press cannot save them twice. */
function markSaved(tiles: Array<ReturnType<typeof makeTile>>, saved: ReadonlyArray<{ src: string }>, selected: Set<string>): void {
  for (const t of tiles) {
    if (!saved.some((s) => s.src === t.image.src)) continue;
    t.tile.classList.remove('tile--seen');
    t.tile.querySelector('.tile__seen')?.remove();
    t.tile.classList.add('tile--saved');
    t.box.checked = false;
    selected.delete(t.image.src);
  }
}

/** Undo for the pins just saved: deletes them, and says how that went in `result`. */
function undoButton(ids: number[], pageUrl: string, result: HTMLElement) {
  const undo = h('button', { type: 'button', class: 'link-button' }, 'Undo');
  undo.addEventListener('click', async () => {
    undo.disabled = true;
    const undone = await ask({ type: 'undo', pinIds: ids, pageUrl });
    fill(result, h('p', isFailure(undone) ? { class: 'error' } : {}, isFailure(undone) ? undone.message : undoneText(ids.length)));
  });
  return undo;
}

function showImages({ page, images }: ImageList, status: Status) {
  const selected = new Set<string>();
  const count = h('span', { class: 'count' });
  const saveButton = h('button', { type: 'submit', class: 'button' }, 'Save');
  const result = h('div', { class: 'result', role: 'status' });
  const boards = renderBoardSelect();
  const all = h('input', { type: 'checkbox' });
  const tiles = images.map((image) => makeTile(image, page.url, () => update()));
  for (const { image, box } of tiles) {
    box.addEventListener('change', () => {
      if (box.checked) selected.add(image.src);
      else selected.delete(image.src);
      update();
    });
  }
  all.addEventListener('change', () => {
    for (const { image, box } of tiles) {
      box.checked = all.checked;
      if (all.checked) selected.add(image.src);
      else selected.delete(image.src);
    }
    update();
  });

  function update() {
    const n = selected.size;
    count.textContent = n ? `${n} of ${images.length} selected` : `${images.length} ${images.length === 1 ? 'image' : 'images'}, largest first`;
    saveButton.textContent = n > 1 ? `Save ${n} pins` : 'Save';
    // The last click comes after the previews: a chosen picture not shown yet cannot be saved.
    const waiting = tiles.some((t) => selected.has(t.image.src) && !t.preview);
    saveButton.disabled = n === 0 || waiting;
    all.checked = n === images.length;
    all.indeterminate = n > 0 && n < images.length;
  }

  async function onSave(event: Event) {
    event.preventDefault();
    // Each picture's own description on its page goes with its pin as alt text.
    const chosen = tiles.filter((t) => selected.has(t.image.src) && t.preview).map((t) => ({ src: t.image.src, alt: t.image.alt, altText: t.image.alt, shown: t.preview?.shown ?? null }));
    if (!chosen.length || chosen.length < selected.size) return;
    await saveChosen(chosen);
  }

  /** Pictures saved already (docs/duplicates.md): one warning each, whose Save anyway saves that one. */
  function warnings(seen: Array<{ src: string; duplicate: Parameters<typeof savedAlreadyBox>[1] }>, chosen: ImageToSave[]) {
    return seen.map(({ src, duplicate }) => {
      const image = chosen.find((c) => c.src === src);
      const tile = tiles.find((t) => t.image.src === src);
      if (tile && !tile.tile.classList.contains('tile--seen')) {
        tile.tile.classList.add('tile--seen');
        tile.tile.append(h('span', { class: 'tile__seen' }, SAVED_ALREADY.badge));
      }
      const label = tile?.image.alt || src.split('/').pop() || src;
      return savedAlreadyBox(status.server, duplicate, () => image && void saveChosen([{ ...image, saveAnyway: true }]), label);
    });
  }

  async function saveChosen(chosen: ImageToSave[]) {
    saveButton.disabled = true;
    fill(result, h('p', {}, `Saving ${chosen.length} ${chosen.length === 1 ? 'pin' : 'pins'}…`));
    const board = await boards.chosenBoard();
    if (board === undefined) return update();
    const answer = await ask({ type: 'save', images: chosen, page, board });
    update();
    if (isFailure(answer)) return fill(result, h('p', { class: 'error' }, answer.message));
    const ids = answer.saved.map((pin) => pin.id);
    const undo = undoButton(ids, page.url, result);
    const view = h('a', { href: answer.board ? `${status.server}/boards/${answer.board.id}` : `${status.server}/pins`, target: '_blank', rel: 'noopener' }, 'View');
    const text = h('p', { class: answer.saved.length ? 'success' : answer.seen.length && !answer.failed.length ? '' : 'error' }, outcomeText(answer, answer.board));
    fill(result, text, ids.length ? undo : null, ids.length ? view : null, ...warnings(answer.seen, chosen));
    markSaved(tiles, answer.saved, selected);
    update();
    document.title = `Saved to ${boardLabel(answer.board)}`;
  }

  fill(
    app,
    header(),
    h('p', { class: 'page' }, h('span', { class: 'page__title' }, page.title || page.url)),
    h('div', { class: 'toolbar' }, h('label', { class: 'select-all' }, all, 'Select all'), count),
    h('div', { class: 'grid', role: 'group', 'aria-label': 'Images on this page' }, ...tiles.map((t) => t.tile)),
    h('form', { class: 'footer', onsubmit: (event: Event) => void onSave(event) }, boards.element, saveButton),
    result,
  );
  update();
  void boards.load();
}

void start();
