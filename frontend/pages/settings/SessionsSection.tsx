import { useStore } from 'jotai';
import { useState } from 'react';
import type { AccountSession } from '../../../contract/account.ts';
import { endOtherSessions } from '../../api/account.ts';
import { relativeTime } from '../../components/RelativeTime.tsx';
import { showToast } from '../../state/toasts.ts';
import { deviceName } from './device-name.ts';

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function SessionRow({ session }: { session: AccountSession }) {
  return (
    <li className="session-row">
      <div className="session-row__about">
        <span className="session-row__device" title={session.userAgent ?? undefined}>
          {deviceName(session.userAgent)}
          {session.current ? <span className="session-row__this">This device</span> : null}
        </span>
        <span className="session-row__meta">
          Signed in {DATE.format(new Date(session.createdAt))}
          {session.current ? null : ` · last active ${relativeTime(session.lastSeenAt, Date.now()) ?? DATE.format(new Date(session.lastSeenAt))}`}
        </span>
      </div>
    </li>
  );
}

/** Where the account is signed in, and "Sign out everywhere else". `onEnded` refreshes the list. */
export function SessionsSection({ sessions, onEnded }: { sessions: AccountSession[]; onEnded: () => void }) {
  const store = useStore();
  const [busy, setBusy] = useState(false);
  const others = sessions.filter((session) => !session.current).length;

  async function endOthers() {
    setBusy(true);
    try {
      await endOtherSessions();
      showToast(store, others === 1 ? 'Signed out of 1 other session.' : `Signed out of ${others} other sessions.`);
      onEnded();
    } catch (error) {
      console.error(error);
      showToast(store, 'Could not sign out the other sessions. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="settings-card" aria-labelledby="settings-sessions-title">
      <h2 id="settings-sessions-title">Where you are signed in</h2>
      <ul className="session-list">
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      {others === 0 ? (
        <p className="settings-card__about">You are signed in on this device only.</p>
      ) : (
        <button type="button" className="button button--secondary settings-card__submit" onClick={() => void endOthers()} disabled={busy}>
          {busy ? 'Signing out…' : 'Sign out everywhere else'}
        </button>
      )}
    </section>
  );
}
