import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { liveStatusAtom } from '../state/atoms.ts';

export const LIVE_PAUSED_TEXT = 'Live updates paused — reconnecting…';
/** A drop shorter than this (a blip, a server restart) shows nothing. */
const LIVE_PAUSED_DELAY_MS = 1_000;

/**
 * A small pill shown while live updates are paused: the socket dropped after having worked and is
 * reconnecting. Nothing on first load, during a login/logout switch, or for a blip under a second.
 */
export function LiveIndicator() {
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
      {paused && show ? <span className="live-indicator__pill">{LIVE_PAUSED_TEXT}</span> : null}
    </div>
  );
}
