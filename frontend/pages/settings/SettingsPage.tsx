import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useState } from 'react';
import type { Account } from '../../../contract/account.ts';
import { fetchAccount } from '../../api/account.ts';
import { Loading } from '../../components/Status.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { DataSection } from './DataSection.tsx';
import { DeleteSection } from './DeleteSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import './settings.css';

/**
 * Account settings (docs/accounts.md): username and email, password, where one is signed in,
 * one's data, and deleting the account. A form that saved is drawn anew (its `key`), empty of
 * passwords and with the account as it is now.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const [account, setAccount] = useState<Account | null>(null);
  const [saves, setSaves] = useState(0);
  const { status, failure, reload } = useLoad(async () => setAccount(await fetchAccount()), 'account');

  function saved() {
    setSaves((n) => n + 1);
    reload();
  }

  return (
    <div className="settings-page">
      <header className="settings-page__header">
        <h1>Settings</h1>
      </header>
      {status === 'loading' && !account ? <Loading text="Loading your settings..." /> : null}
      {status === 'error' ? <LoadFailed failure={failure} onRetry={reload} /> : null}
      {account ? (
        <div className="settings-page__sections">
          <ProfileSection key={`profile-${saves}`} user={account.user} onSaved={saved} />
          <PasswordSection key={`password-${saves}`} onChanged={saved} />
          <SessionsSection sessions={account.sessions} onEnded={reload} />
          <DataSection />
          <DeleteSection />
        </div>
      ) : null}
    </div>
  );
}
