import { useStore } from 'jotai';
import { useRef } from 'react';
import type { Invite } from '../../../contract/invites.ts';
import { showToast } from '../../state/toasts.ts';

const DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });

/** What is left of an invite: sign-ups and time, or why it no longer works. */
function standing(invite: Invite, now: number): { usable: boolean; text: string } {
  const expires = Date.parse(invite.expiresAt);
  if (invite.remaining === 0) return { usable: false, text: `Used up · ${invite.used} of ${invite.uses} signed up` };
  if (expires <= now) return { usable: false, text: `Expired ${DATE.format(expires)}` };
  const left = `${invite.remaining} of ${invite.uses} sign-up${invite.uses === 1 ? '' : 's'} left`;
  return { usable: true, text: `${left} · expires ${DATE.format(expires)}` };
}

/** One invite link: its address with Copy while it works, what is left of it, and Revoke. */
export function InviteRow({ invite, now, onRevoke }: { invite: Invite; now: number; onRevoke: (invite: Invite) => void }) {
  const store = useStore();
  const field = useRef<HTMLInputElement>(null);
  const address = `${window.location.origin}${invite.url}`;
  const { usable, text } = standing(invite, now);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      showToast(store, 'Invite link copied');
    } catch {
      // No clipboard (an insecure origin, a refused permission): select it for a manual copy.
      field.current?.select();
      showToast(store, 'Could not copy: the link is selected, copy it with Ctrl+C or ⌘C.');
    }
  }

  return (
    <li className={`invite-row${usable ? '' : ' invite-row--spent'}`}>
      <div className="invite-row__link">
        <input ref={field} className="field__input invite-row__address" readOnly value={address} aria-label={`Invite link, ${text}`} onFocus={(event) => event.currentTarget.select()} />
        {usable ? (
          <button type="button" className="button" onClick={() => void copy()}>
            Copy
          </button>
        ) : null}
      </div>
      <div className="invite-row__foot">
        <span className="invite-row__meta">{text}</span>
        <button type="button" className="button button--secondary button--small" onClick={() => onRevoke(invite)}>
          Revoke
        </button>
      </div>
    </li>
  );
}
