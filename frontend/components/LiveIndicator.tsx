import { useAtomValue } from 'jotai';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { liveStatusAtom } from '../state/atoms.ts';

export const LIVE_PAUSED_TEXT = 'Live updates paused — reconnecting…';
/** Offline, pages show the copies this device kept (docs/installable-app.md) and writes wait (docs/outbox.md). */
export const OFFLINE_TEXT = "You're offline — showing saved copies.";
/** A drop shorter than this (a blip, a server restart) shows nothing. */
const LIVE_PAUSED_DELAY_MS = 1_000;

function followOnline(changed: () => void): () => void {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

/**
 * A small pill shown while live updates are paused: the socket dropped after having worked and is
 * reconnecting. Nothing on first load, during a login/logout switch, or for a blip under a second.
 * When the browser says it is offline, the pill says that at once instead.
 */
export function LiveIndicator() {
  const offline = useSyncExternalStore(
    followOnline,
    () => !navigator.onLine,
    () => false,
  );
  const paused = useAtomValue(liveStatusAtom) === 'paused';
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (!paused) {
      setShow(false);
      return;
    }
    const timer = setTimeout(() => setShow(true), LIVE_PAUSED_DELAY_MS);
    return () => clearTimeout(timer);
  }, [paused]);
  return (
    <div className="live-indicator" role="status" aria-live="polite">
      {offline ? <span className="live-indicator__pill">{OFFLINE_TEXT}</span> : paused && show ? <span className="live-indicator__pill">{LIVE_PAUSED_TEXT}</span> : null}
    </div>
  );
}
