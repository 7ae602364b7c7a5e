import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../api/client.ts';
import { createToken, revokeToken } from '../api/tokens.ts';
import { browserName, listenToExtension, pingExtension, sendToken } from '../extension/bridge.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';

/** How long the page waits for the extension to say hello, or to answer a token: only a bound. */
const ANSWER_WAIT_MS = 15_000;
const HELLO_WAIT_MS = 2_000;

type State =
  { kind: 'looking' } | { kind: 'absent' } | { kind: 'ready'; username: string | null } | { kind: 'connecting' } | { kind: 'connected'; username: string } | { kind: 'failed'; message: string };

/**
 * "Connect" for the browser extension (docs/extension.md): finds the extension (its content script
 * runs on this origin once its options name this server), and on Connect makes a write token named
 * for this browser and hands it over. A token the extension did not take is revoked again.
 */
export function ConnectPage() {
  useDocumentTitle('Connect the browser extension');
  const [state, setState] = useState<State>({ kind: 'looking' });
  const pending = useRef<{ tokenId: number; timer: number } | null>(null);
  const tokenName = `Browser extension (${browserName(navigator.userAgent)})`;

  const look = useCallback(() => {
    setState({ kind: 'looking' });
    pingExtension();
    const timer = window.setTimeout(() => setState((s) => (s.kind === 'looking' ? { kind: 'absent' } : s)), HELLO_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, []);

  useEffect(() => {
    const stop = listenToExtension((message) => {
      if (message.type === 'pinboard-extension:hello') {
        setState((s) => (s.kind === 'looking' || s.kind === 'absent' ? { kind: 'ready', username: message.username } : s));
        return;
      }
      const waiting = pending.current;
      if (!waiting) return;
      window.clearTimeout(waiting.timer);
      pending.current = null;
      if (message.ok) setState({ kind: 'connected', username: message.username });
      else {
        void revokeToken(waiting.tokenId).catch(() => undefined);
        setState({ kind: 'failed', message: message.message });
      }
    });
    const stopLooking = look();
    return () => {
      stop();
      stopLooking();
    };
  }, [look]);

  async function connect() {
    setState({ kind: 'connecting' });
    try {
      const { token, secret } = await createToken({ name: tokenName, scope: 'write' });
      const timer = window.setTimeout(() => {
        pending.current = null;
        void revokeToken(token.id).catch(() => undefined);
        setState({ kind: 'failed', message: 'The extension did not answer. Reload this page and try again.' });
      }, ANSWER_WAIT_MS);
      pending.current = { tokenId: token.id, timer };
      sendToken(secret);
    } catch (error) {
      setState({ kind: 'failed', message: isApiError(error) ? error.message : 'The token could not be created.' });
    }
  }

  return (
    <div className="form-page">
      <section className="form-card connect" aria-labelledby="connect-title">
        <h1 id="connect-title">Connect the browser extension</h1>
        <p className="connect__lead">
          Save images from any page you visit, with the page they came from: the extension’s toolbar button, an image’s right-click menu, or the Save button over large images.
        </p>
        <ConnectBody state={state} tokenName={tokenName} onConnect={() => void connect()} onLook={look} />
      </section>
    </div>
  );
}

function ConnectBody({ state, tokenName, onConnect, onLook }: { state: State; tokenName: string; onConnect: () => void; onLook: () => void }) {
  const origin = window.location.origin;
  switch (state.kind) {
    case 'looking':
      return (
        <p className="connect__status" role="status">
          Looking for the extension…
        </p>
      );
    case 'absent':
      return (
        <>
          <p className="connect__status" role="status">
            The extension is not answering on this page.
          </p>
          <ol className="connect__steps">
            <li>Install the Pinboard extension in this browser.</li>
            <li>
              In its options, enter this address: <code>{origin}</code>
            </li>
            <li>Come back here and look again.</li>
          </ol>
          <button type="button" className="button" onClick={onLook}>
            Look again
          </button>
        </>
      );
    case 'ready':
    case 'connecting':
      return (
        <>
          <p className="connect__status" role="status">
            {state.kind === 'ready' && state.username ? `The extension is connected as ${state.username}. Connect again to give it a new token.` : 'The extension is ready.'}
          </p>
          <p>
            Connecting creates a token named <strong>{tokenName}</strong> that lets the extension save pins to your account. You can revoke it at any time under Tokens.
          </p>
          <button type="button" className="button" onClick={onConnect} disabled={state.kind === 'connecting'}>
            {state.kind === 'connecting' ? 'Connecting…' : 'Connect'}
          </button>
        </>
      );
    case 'connected':
      return (
        <>
          <p className="connect__status connect__status--ok" role="status">
            Connected as {state.username}.
          </p>
          <p>The extension now saves to your account. You can close this tab.</p>
          <Link to="/" className="button button--secondary">
            Back to Pinboard
          </Link>
        </>
      );
    case 'failed':
      return (
        <>
          <p className="connect__status connect__status--error" role="alert">
            {state.message}
          </p>
          <button type="button" className="button" onClick={onLook}>
            Try again
          </button>
        </>
      );
  }
}
