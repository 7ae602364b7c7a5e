// The Save button that shows over an image of at least 150 × 150 px while the pointer is on it.
// It sits in our shadow root (ui-root.ts), positioned over the image's top-left corner.
import { h } from '../lib/dom.ts';
import { uiRoot } from './ui-root.ts';

/** Smaller images (icons, avatars, buttons) get no button: the popup still lists them. */
export const HOVER_MIN_PX = 150;
const INSET = 10;

const PIN_PATH = 'M8 1a5 5 0 0 0-1.8 9.7L5.2 15h1.6l1.1-4.2A5 5 0 1 0 8 1z';

function imageAt(event: MouseEvent): HTMLImageElement | null {
  if (event.target instanceof HTMLImageElement) return event.target;
  // An overlay (a link or a caption laid over the picture) is under the pointer first: look below it.
  for (const element of document.elementsFromPoint(event.clientX, event.clientY).slice(0, 6)) {
    if (element instanceof HTMLImageElement) return element;
  }
  return null;
}

function bigEnough(image: HTMLImageElement): DOMRect | null {
  const rect = image.getBoundingClientRect();
  return rect.width >= HOVER_MIN_PX && rect.height >= HOVER_MIN_PX && (image.currentSrc || image.src) ? rect : null;
}

/**
 * Starts watching the pointer; `onSave` gets the image whose button was pressed. No button shows
 * while `paused()` (the picker is open).
 */
export function startHoverSave(onSave: (image: HTMLImageElement) => void, paused: () => boolean): void {
  let current: HTMLImageElement | null = null;
  let button: HTMLButtonElement | null = null;

  function hide() {
    current = null;
    if (button) button.hidden = true;
  }

  function place(image: HTMLImageElement, rect: DOMRect) {
    if (!button) {
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('viewBox', '0 0 16 16');
      svg.setAttribute('aria-hidden', 'true');
      const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
      path.setAttribute('d', PIN_PATH);
      svg.appendChild(path);
      button = h('button', { type: 'button', class: 'ui save', 'aria-label': 'Save image to Pinboard' }, svg, 'Save');
      button.addEventListener('click', (event) => {
        event.preventDefault();
        event.stopPropagation(); // the image may sit in a link: do not follow it
        if (current) onSave(current);
        hide();
      });
      uiRoot().appendChild(button);
    }
    current = image;
    button.hidden = false;
    button.style.left = `${Math.max(4, rect.left + INSET)}px`;
    button.style.top = `${Math.max(4, rect.top + INSET)}px`;
  }

  document.addEventListener(
    'mouseover',
    (event) => {
      // Onto our own button (the page sees our host element): it stays.
      if (event.target instanceof Element && event.target.localName === 'pinboard-extension-ui') return;
      const image = paused() ? null : imageAt(event);
      const rect = image ? bigEnough(image) : null;
      if (image && rect) place(image, rect);
      else if (current) hide();
    },
    { capture: true, passive: true },
  );
  // The picture moved under a still pointer: the button would float somewhere else.
  window.addEventListener('scroll', hide, { capture: true, passive: true });
  window.addEventListener('resize', hide, { passive: true });
}
