import { useStore } from 'jotai';
import { useRef } from 'react';
import type { TokenCreated } from '../../../contract/tokens.ts';
import { TOKEN_MSG } from '../../../contract/token-rules.ts';
import { showToast } from '../../state/toasts.ts';

/** The one time a token's secret is shown: copy it now, it cannot be shown again. */
export function NewTokenSecret({ created, onDone }: { created: TokenCreated; onDone: () => void }) {
  const store = useStore();
  const field = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      showToast(store, TOKEN_MSG.copied);
    } catch {
      // No clipboard (an insecure origin, a refused permission): select it for a manual copy.
      field.current?.select();
      showToast(store, 'Could not copy: the token is selected, copy it with Ctrl+C or ⌘C.');
    }
  }

  return (
    <section className="token-secret" aria-labelledby="token-secret-title">
      <h2 id="token-secret-title">Copy your new token now</h2>
      <p>
        “{created.token.name}” is ready. This is the only time it is shown: store it somewhere safe, such as your password manager. Anyone with it can act as you
        {created.token.scope === 'read' ? ' (read only)' : ''}.
      </p>
      <div className="token-secret__row">
        <input ref={field} className="field__input token-secret__value" readOnly value={created.secret} aria-label="New token" onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <button type="button" className="button button--secondary token-secret__done" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
