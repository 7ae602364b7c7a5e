import { useStore } from 'jotai';
import { useId, useState } from 'react';
import type { Pin } from '../../contract/index.ts';
import { PIN_VISIBILITIES, VISIBILITY_TEXT, type PinVisibilityValue } from '../../contract/visibility.ts';
import { isApiError } from '../api/client.ts';
import { setPinVisibility } from '../api/pins.ts';
import { upsertPin } from '../state/pins.ts';
import { showToast } from '../state/toasts.ts';
import { LockIcon } from './Icons.tsx';

/** What anyone but the owner reads on a private pin they may see (a member of one of its boards). */
const MEMBERS_ONLY = "Only its owner and the boards' members can see this pin";

/**
 * Who sees the pin (docs/who-sees-what.md): its owner switches it here; a member who sees a private
 * pin is told it is private.
 */
export function PinVisibility({ pin, owner }: { pin: Pin; owner: boolean }) {
  const store = useStore();
  const name = useId();
  // The choice shows at once; the server's answer (or its refusal) settles it.
  const [chosen, setChosen] = useState<PinVisibilityValue | null>(null);
  if (!owner) {
    if (pin.visibility !== 'private') return null;
    return (
      <p className="pin-visibility__note">
        <LockIcon /> {MEMBERS_ONLY}
      </p>
    );
  }

  async function choose(visibility: PinVisibilityValue) {
    if (visibility === pin.visibility) return;
    setChosen(visibility);
    try {
      upsertPin(store, await setPinVisibility(pin.id, visibility));
    } catch (error) {
      showToast(store, isApiError(error) ? error.message : 'Could not change who sees this pin. Please try again.');
    } finally {
      setChosen(null);
    }
  }
  const shown = chosen ?? pin.visibility;

  return (
    <fieldset className="pin-visibility" disabled={chosen !== null}>
      <legend className="pin-visibility__legend">Who can see this pin</legend>
      <div className="pin-visibility__options">
        {PIN_VISIBILITIES.map((value) => (
          <label key={value} className="pin-visibility__option">
            <input type="radio" name={name} value={value} checked={shown === value} onChange={() => void choose(value)} />
            {value === 'private' ? <LockIcon /> : null}
            {value === 'public' ? 'Public' : 'Private'}
          </label>
        ))}
      </div>
      {shown === 'private' ? <p className="pin-visibility__note">{VISIBILITY_TEXT.private}</p> : null}
    </fieldset>
  );
}
