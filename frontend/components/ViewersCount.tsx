import { useAtomValue } from 'jotai';
import { viewersText } from '../../contract/presence.ts';
import { pinViewersAtom } from '../live/presence-state.ts';
import { usePresence } from '../live/presence-hooks.ts';

/**
 * "N people viewing" on a pin's page, live (DESIGN §12). Mounting it makes this tab one of the
 * viewers. Nothing is shown until the server has given a count (no live connection: nothing at all).
 */
export function ViewersCount({ pinId }: { pinId: number }) {
  usePresence({ pinId });
  const viewers = useAtomValue(pinViewersAtom).get(pinId);
  return (
    <p className="viewers-count" aria-live="polite">
      {viewers === undefined ? null : viewersText(viewers)}
    </p>
  );
}
