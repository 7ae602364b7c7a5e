import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BoardLink } from '../../../contract/board-links.ts';
import { BOARD_LINK_RULES } from '../../../contract/board-link-rules.ts';
import { createBoardLink, fetchBoardLinks, revokeBoardLink } from '../../api/board-links.ts';
import { ApiError } from '../../api/client.ts';
import { showToast } from '../../state/toasts.ts';

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * A board's secret links in the Share dialog. A link's address is shown once, when it is made
 * (the server keeps only a hash of it, like a token's): the owner copies it then, and a lost one
 * is replaced by a new link and revoked.
 */
export function BoardLinksSection({ boardId }: { boardId: number }) {
  const store = useStore();
  const [links, setLinks] = useState<BoardLink[] | null>(null);
  const [fresh, setFresh] = useState<{ id: number; address: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const load = useCallback(async () => {
    try {
      setLinks(await fetchBoardLinks(boardId));
    } catch (failure) {
      console.error(failure);
      setError('Could not load the links.');
    }
  }, [boardId]);
  useEffect(() => void load(), [load]);

  async function make() {
    setBusy(true);
    setError(undefined);
    try {
      const { link } = await createBoardLink(boardId);
      setFresh({ id: link.id, address: new URL(link.url, window.location.origin).href });
      setLinks((current) => [{ id: link.id, createdAt: link.createdAt, hint: link.hint }, ...(current ?? [])]);
    } catch (failure) {
      console.error(failure);
      setError(failure instanceof ApiError && failure.status === 409 ? failure.message : 'Could not make a link. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function revoke(link: BoardLink) {
    setError(undefined);
    try {
      await revokeBoardLink(boardId, link.id);
      setLinks((current) => (current ?? []).filter((l) => l.id !== link.id));
      if (fresh?.id === link.id) setFresh(null);
      showToast(store, 'Link revoked: it no longer opens the board.');
    } catch (failure) {
      console.error(failure);
      setError('Could not revoke the link. Please try again.');
    }
  }

  return (
    <section className="share-links" aria-labelledby="share-links-title">
      <h3 id="share-links-title" className="field__label">
        Secret links
      </h3>
      <p className="field__hint">Anyone with a link can view this board and all its pins, private ones included, without signing in. They cannot change anything.</p>
      {fresh ? <FreshLink address={fresh.address} /> : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {links === null ? null : <LinkList links={links} onRevoke={(link) => void revoke(link)} />}
      <button type="button" className="button button--secondary share-links__make" onClick={() => void make()} disabled={busy || (links?.length ?? 0) >= BOARD_LINK_RULES.perBoard}>
        {busy ? 'Making a link…' : 'Make a link'}
      </button>
    </section>
  );
}

/** The one time a link's address is shown: copy it now. */
function FreshLink({ address }: { address: string }) {
  const store = useStore();
  const field = useRef<HTMLInputElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      showToast(store, 'Link copied to clipboard!');
    } catch {
      // No clipboard (an insecure origin, a refused permission): select it for a manual copy.
      field.current?.select();
      showToast(store, 'Could not copy: the link is selected, copy it with Ctrl+C or ⌘C.');
    }
  }
  return (
    <div className="share-links__fresh">
      <p className="share-links__once">Copy this link now: it is shown only once. Lost it? Make a new one and revoke this one.</p>
      <div className="share-links__row">
        <input ref={field} className="field__input share-links__value" readOnly value={address} aria-label="New link" onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
    </div>
  );
}

/** The board's links, each told apart by its last 4 characters, each with Revoke. */
function LinkList({ links, onRevoke }: { links: BoardLink[]; onRevoke: (link: BoardLink) => void }) {
  if (links.length === 0) return <p className="share-links__none">No links yet.</p>;
  return (
    <ul className="share-links__list" aria-label="Links to this board">
      {links.map((link) => (
        <li key={link.id} className="share-links__item">
          <span className="share-links__about">
            <span className="share-links__hint">…{link.hint}</span> made {dateOf(link.createdAt)}
          </span>
          <button type="button" className="button button--secondary button--small" onClick={() => onRevoke(link)} aria-label={`Revoke link ending ${link.hint}`}>
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}
