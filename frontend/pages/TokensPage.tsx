import { LoadFailed } from '../components/LoadFailed.tsx';
import { useStore } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ApiToken, TokenCreated } from '../../contract/tokens.ts';
import { fetchTokens, revokeToken } from '../api/tokens.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { Loading } from '../components/Status.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useLoad } from '../hooks/useLoad.ts';
import { showToast } from '../state/toasts.ts';
import { Bookmarklet } from './tokens/Bookmarklet.tsx';
import { NewTokenSecret } from './tokens/NewTokenSecret.tsx';
import { TokenCreateForm } from './tokens/TokenCreateForm.tsx';
import { TokenRow } from './tokens/TokenRow.tsx';
import '../styles/tokens.css';

/**
 * Personal access tokens (docs/tokens-and-capture.md): create one (its secret shown once, with
 * Copy), see them all with their last use, revoke any; and the bookmarklet.
 */
export function TokensPage() {
  useDocumentTitle('Tokens');
  const store = useStore();
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const { status, failure, reload } = useLoad(async () => setTokens(await fetchTokens()), 'tokens');
  const now = Date.now();

  function onCreated(next: TokenCreated) {
    setCreated(next);
    setTokens((current) => [next.token, ...current.filter((token) => token.id !== next.token.id)]);
    setFormKey((key) => key + 1);
  }

  async function revoke(token: ApiToken) {
    try {
      await revokeToken(token.id);
      setTokens((current) => current.filter((t) => t.id !== token.id));
      if (created?.token.id === token.id) setCreated(null);
      showToast(store, `Token “${token.name}” revoked`);
    } catch (error) {
      console.error(error);
      showToast(store, 'Could not revoke the token. Please try again.');
    }
  }

  return (
    <div className="tokens-page">
      <header className="tokens-page__header">
        <h1>Tokens</h1>
        <p>Personal access tokens let your scripts and the browser extension use Pinboard as you, without your password. Revoke one and it stops working at once.</p>
        <p>
          For the browser extension, <Link to="/connect">connect it</Link> instead: that makes its token for you.
        </p>
      </header>
      {created ? <NewTokenSecret created={created} onDone={() => setCreated(null)} /> : null}
      <div className="tokens-page__grid">
        <TokenCreateForm key={formKey} onCreated={onCreated} />
        <section className="token-list" aria-labelledby="token-list-title">
          <h2 id="token-list-title">Your tokens</h2>
          {status === 'loading' && tokens.length === 0 ? <Loading text="Loading tokens..." /> : null}
          {status === 'error' ? <LoadFailed failure={failure} onRetry={reload} /> : null}
          {status === 'ready' && tokens.length === 0 ? <p className="token-list__empty">No tokens yet. Create one to use the API from a script.</p> : null}
          {tokens.length > 0 ? (
            <ul className="token-list__items">
              {tokens.map((token) => (
                <TokenRow key={token.id} token={token} now={now} onRevoke={setRevoking} />
              ))}
            </ul>
          ) : null}
        </section>
      </div>
      <Bookmarklet />
      {revoking ? (
        <ConfirmModal
          title="Revoke token"
          message={`Revoke “${revoking.name}”?`}
          detail="Anything using it (a script, the extension) stops working at once. This cannot be undone."
          confirmLabel="Revoke"
          cancelLabel="Cancel"
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </div>
  );
}
