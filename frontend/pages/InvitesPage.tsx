import { LoadFailed } from '../components/LoadFailed.tsx';
import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import type { Invite } from '../../contract/invites.ts';
import { MSG } from '../../contract/messages.ts';
import { fetchInvites, revokeInvite } from '../api/invites.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { Loading } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { siteAtom } from '../state/site.ts';
import { showToast } from '../state/toasts.ts';
import { InviteCreateForm } from './invites/InviteCreateForm.tsx';
import { InviteRow } from './invites/InviteRow.tsx';
import '../styles/tokens.css';
import '../styles/invites.css';

/** What the screen says of how people join this site. */
const JOINING = {
  invite: 'Sign-ups on this site need an invite link. Make one, send it to someone, and they can create an account with it.',
  open: 'Anyone can sign up on this site; an invite link takes someone straight to the sign-up page.',
  closed: MSG.signupsClosed,
} as const;

/** Invite people (docs/site-access.md): make invite links, see what is left of each, revoke any. */
export function InvitesPage() {
  useDocumentTitle('Invite people');
  const store = useStore();
  const { signups } = useAtomValue(siteAtom);
  const [invites, setInvites] = useState<Invite[]>([]);
  const [formKey, setFormKey] = useState(0);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const { status, failure, reload } = useLoad(async () => setInvites(await fetchInvites()), 'invites');
  const now = Date.now();

  function onCreated(invite: Invite) {
    setInvites((current) => [invite, ...current.filter((other) => other.id !== invite.id)]);
    setFormKey((key) => key + 1);
    showToast(store, 'Invite link created');
  }

  async function revoke(invite: Invite) {
    try {
      await revokeInvite(invite.id);
      setInvites((current) => current.filter((other) => other.id !== invite.id));
      showToast(store, 'Invite link revoked');
    } catch (error) {
      console.error(error);
      showToast(store, 'Could not revoke the invite link. Please try again.');
    }
  }

  return (
    <div className="tokens-page">
      <header className="tokens-page__header">
        <h1>Invite people</h1>
        <p>{JOINING[signups]}</p>
      </header>
      <div className="tokens-page__grid">
        {signups === 'closed' ? null : <InviteCreateForm key={formKey} onCreated={onCreated} />}
        <section className="token-list" aria-labelledby="invite-list-title">
          <h2 id="invite-list-title">Your invite links</h2>
          {status === 'loading' && invites.length === 0 ? <Loading text="Loading invite links..." /> : null}
          {status === 'error' ? <LoadFailed failure={failure} onRetry={reload} /> : null}
          {status === 'ready' && invites.length === 0 ? <p className="token-list__empty">No invite links yet.</p> : null}
          {invites.length > 0 ? (
            <ul className="invite-list__items">
              {invites.map((invite) => (
                <InviteRow key={invite.id} invite={invite} now={now} onRevoke={setRevoking} />
              ))}
            </ul>
          ) : null}
        </section>
      </div>
      {revoking ? (
        <ConfirmModal
          title="Revoke invite link"
          message="Revoke this invite link?"
          detail="Nobody can sign up with it any more. Accounts already made with it stay."
          confirmLabel="Revoke"
          cancelLabel="Cancel"
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </div>
  );
}
