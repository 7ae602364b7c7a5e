import { useAtomValue } from 'jotai';
import { viewersText } from '../../contract/presence.ts';
import { pinViewersAtom } from '../live/presence-state.ts';
import { usePresence } from '../live/presence-hooks.ts';

/**
 * "N people viewing" on a pin's page, live. Mounting it makes this tab one of the viewers, so a
 * count of one is the reader alone: nothing is shown then ("1 person viewing" read as a stranger).
 * Nothing is shown until the server has given a count (no live connection: nothing at all).
 */
export function ViewersCount({ pinId }: { pinId: number }) {
  usePresence({ pinId });
  const viewers = useAtomValue(pinViewersAtom).get(pinId);
  // Inline after the favorites count ("· 3 people viewing"): no line is kept empty for it.
  return (
    <span className="viewers-count" aria-live="polite">
      {viewers === undefined || viewers < 2 ? null : `· ${viewersText(viewers)}`}
    </span>
  );
}
