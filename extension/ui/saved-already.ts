// The warning for a picture the user saved already (docs/duplicates.md), in the page's picker and
// in the popup: the app's own words ("You saved this on {date} to {board}", Save anyway, Open it),
// from contract/, so the extension says what the New Pin form and bulk upload say.
import { SAVED_ALREADY, savedAlreadyWords } from '../../contract/duplicate-rules.ts';
import type { DuplicatePin } from '../../contract/duplicates.ts';
import { h } from '../lib/dom.ts';

/** `server`: the Pinboard's address (Open it opens the pin there, in a new tab). */
export function savedAlreadyBox(server: string, duplicate: DuplicatePin, onSaveAnyway: () => void, label = ''): HTMLElement {
  const named = label ? `: ${label}` : '';
  return h(
    'div',
    { class: 'saved-already', role: 'status' },
    h('p', { class: 'saved-already__words' }, savedAlreadyWords(duplicate)),
    h(
      'div',
      { class: 'saved-already__actions' },
      h('button', { type: 'button', class: 'pill saved-already__anyway', onclick: onSaveAnyway, 'aria-label': `${SAVED_ALREADY.saveAnyway}${named}` }, SAVED_ALREADY.saveAnyway),
      h(
        'a',
        { class: 'pill pill--quiet saved-already__open', href: `${server}/pins/${duplicate.pin.id}`, target: '_blank', rel: 'noopener', 'aria-label': `${SAVED_ALREADY.openIt}${named}` },
        SAVED_ALREADY.openIt,
      ),
    ),
  );
}

/** Its styles, for the picker's shadow root and the popup's page alike. */
export const SAVED_ALREADY_CSS = `
.saved-already { display: flex; flex-direction: column; gap: 8px; margin: 0 14px 8px; padding: 10px 12px; border-radius: 12px; background: #fff7e0; border: 1px solid #f0d48a; }
.saved-already__words { margin: 0; font-weight: 700; overflow-wrap: anywhere; }
.saved-already__actions { display: flex; flex-wrap: wrap; gap: 8px; }
.saved-already__actions .pill { display: inline-flex; align-items: center; text-decoration: none; font-size: 13px; height: 32px; }
`;
