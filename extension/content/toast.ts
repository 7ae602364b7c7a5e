// The confirmation after a save ("Saved to ‹board›", with Undo and View), bottom-left of the page,
// announced to screen readers. It stays while pointed at or focused, else goes after 8 s.
import { h } from '../lib/dom.ts';
import { uiRoot } from './ui-root.ts';

const SHOW_MS = 8_000;

export interface ToastOptions {
  /** Undo: runs, then the toast says `undone` (or the error). */
  undo?: { run: () => Promise<string | null>; undone: string };
  link?: { href: string; label: string };
}

let region: HTMLElement | null = null;

function toastRegion(): HTMLElement {
  if (!region) {
    region = h('div', { class: 'ui toasts', role: 'status', 'aria-live': 'polite', 'aria-label': 'Pinboard' });
    uiRoot().appendChild(region);
  }
  return region;
}

export function showToast(text: string, options: ToastOptions = {}): void {
  const container = toastRegion();
  const label = h('span', { class: 'toast__text' }, text);
  const toast = h('div', { class: 'toast' }, label);
  let timer = 0;
  const close = () => {
    window.clearTimeout(timer);
    toast.remove();
  };
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(close, SHOW_MS);
  };
  if (options.undo) {
    const { run, undone } = options.undo;
    const undo = h('button', { type: 'button', class: 'link' }, 'Undo');
    undo.addEventListener('click', () => {
      undo.disabled = true;
      void run().then((error) => {
        label.textContent = error ?? undone;
        undo.remove();
        toast.querySelector('a')?.remove();
        schedule();
      });
    });
    toast.appendChild(undo);
  }
  if (options.link) toast.appendChild(h('a', { href: options.link.href, target: '_blank', rel: 'noopener noreferrer' }, options.link.label));
  toast.appendChild(h('button', { type: 'button', class: 'icon', 'aria-label': 'Dismiss', onclick: close }, '×'));
  toast.addEventListener('mouseenter', () => window.clearTimeout(timer));
  toast.addEventListener('mouseleave', schedule);
  toast.addEventListener('focusin', () => window.clearTimeout(timer));
  toast.addEventListener('focusout', schedule);
  container.appendChild(toast);
  schedule();
}
