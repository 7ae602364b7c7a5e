import { useEffect, useRef } from 'react';
import { bookmarkletHref } from './bookmarklet.ts';

/**
 * The draggable "Save to Pinboard" bookmarklet. React refuses `javascript:` addresses in `href`,
 * so it is set on the element directly. Clicking it here does nothing (this page's own policy
 * refuses it anyway): it is meant to be dragged to the bookmarks bar.
 */
export function Bookmarklet() {
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    link.current?.setAttribute('href', bookmarkletHref(window.location.origin));
  }, []);
  return (
    <section className="bookmarklet" aria-labelledby="bookmarklet-title">
      <h2 id="bookmarklet-title">Save from any page</h2>
      <p>
        Drag this button to your bookmarks bar. On any page, click it: a window opens with the page’s largest image chosen, its other pictures to pick from, a board to save into, and the page it came
        from filled in. It closes by itself once the pin is saved.
      </p>
      <a ref={link} className="button bookmarklet__link" draggable onClick={(event) => event.preventDefault()} title="Drag me to your bookmarks bar">
        Save to Pinboard
      </a>
      <p className="field__hint">It works on pages that block other bookmarklets: it only opens a window here, and adds nothing to the page.</p>
    </section>
  );
}
