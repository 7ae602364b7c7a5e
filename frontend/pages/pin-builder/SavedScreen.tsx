import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Pin } from '../../../contract/pins.ts';
import { PinImage } from '../../components/PinImage.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import './pin-builder.css';

/** The board a pin was saved to, as the end screen names it; null for none. */
export type SavedBoard = { id: number; name: string } | null;

/** How long the end screen shows in the bookmarklet's window before it closes by itself. */
export const AUTO_CLOSE_MS = 2_000;

/**
 * Closes the window after `AUTO_CLOSE_MS` unless `kept`. A browser closes only a window a script
 * opened: when it refuses, `refused` turns true (the window is still there a moment later).
 */
function useAutoClose(active: boolean): { refused: boolean; close: () => void } {
  const [refused, setRefused] = useState(false);
  const close = () => {
    window.close();
    setTimeout(() => setRefused(!window.closed), 300);
  };
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => closeRef.current(), AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [active]);
  return { refused, close };
}

/**
 * The pin builder's end (docs/tokens-and-capture.md): "Saved to {board}" (or "Saved"), the picture,
 * See it and, in the bookmarklet's window, Close — which happens by itself after 2 s unless the
 * user keeps the window open. The window is never taken into the rest of the app: See it opens a
 * new tab there.
 */
export function SavedScreen({ pin, board, popup }: { pin: Pin; board: SavedBoard; popup: boolean }) {
  const title = board ? `Saved to ${board.name}` : 'Saved';
  useDocumentTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  const [kept, setKept] = useState(false);
  const { refused, close } = useAutoClose(popup && !kept);
  // The form that had the focus is gone: the news is read out from the heading.
  useEffect(() => heading.current?.focus(), []);
  const pinPath = `/pins/${pin.id}`;

  return (
    <div className="form-page">
      <section className="form-card builder-saved" aria-labelledby="builder-saved-title" data-testid="builder-saved">
        <div className="builder-saved__picture">
          <PinImage src={pin.image_url} image={pin.image} alt="" sizes="236px" eager />
        </div>
        <h1 id="builder-saved-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <p className="builder-saved__pin">{pin.title}</p>
        <div className="builder-saved__actions">
          {popup ? (
            <a className="button button--secondary" href={pinPath} target="_blank" rel="noopener">
              See it
            </a>
          ) : (
            <Link className="button button--secondary" to={pinPath}>
              See it
            </Link>
          )}
          {popup ? (
            <button type="button" className="button" onClick={close}>
              Close
            </button>
          ) : (
            <Link className="button" to="/pins">
              Your pins
            </Link>
          )}
        </div>
        {popup ? (
          <p className="field__hint builder-saved__closing" role="status">
            {refused ? 'You can close this window now.' : kept ? 'This window stays open.' : 'This window closes in a moment.'}
            {!refused && !kept ? (
              <button type="button" className="link-button builder-saved__keep" onClick={() => setKept(true)}>
                Keep it open
              </button>
            ) : null}
          </p>
        ) : null}
      </section>
    </div>
  );
}
