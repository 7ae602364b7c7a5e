// Everything the extension shows inside a web page lives in one closed shadow root: the page's
// styles cannot reach in (the host resets every inherited property), ours cannot leak out, and the
// page's scripts cannot read the user's board names from it. Created on first use.
import { UI_CSS } from './styles.ts';

let root: ShadowRoot | null = null;
let host: HTMLElement | null = null;

export function uiRoot(): ShadowRoot {
  if (!host || !root) {
    // A custom-element name (never registered) so no page rule for div/span matches the host.
    host = document.createElement('pinboard-extension-ui');
    root = host.attachShadow({ mode: 'closed' });
    const style = document.createElement('style');
    style.textContent = UI_CSS;
    root.appendChild(style);
    // Keys typed into the picker are ours, not the page's shortcuts.
    for (const type of ['keydown', 'keyup', 'keypress']) root.addEventListener(type, (event) => event.stopPropagation());
  }
  // Pages that rebuild <html>'s children (some single-page apps) may have dropped it.
  if (!host.isConnected) document.documentElement.appendChild(host);
  return root;
}
