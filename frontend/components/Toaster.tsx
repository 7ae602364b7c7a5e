import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../contract/messages.ts';
import { sendDeferredDeletes } from '../state/deferred-deletes.ts';
import type { Store } from '../state/store.ts';
import { dismissToast, pauseToast, resumeToast, takeToast, type Toast, toastsAtom } from '../state/toasts.ts';

/** The shortcut for a toast's action, as the toast shows it and as aria-keyshortcuts names it. */
const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const UNDO_SHORTCUT = IS_MAC ? '⌘Z' : 'Ctrl+Z';

/** Takes a toast's action (its button, or the shortcut). */
async function takeAction(store: Store, toast: Toast): Promise<void> {
  if (!toast.action) return;
  takeToast(store, toast.id);
  await toast.action.run();
}

function editing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * The toast (frontend/state/toasts.ts), bottom left, above the page but beside what the user is
 * reading; one at a time. The region is always in the document so screen readers announce what is
 * added to it. Ctrl+Z (⌘Z) takes the newest toast's Undo from anywhere but a text field,
 * so it is in reach without walking the page with Tab.
 */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const store = useStore();
  // A page being closed or left sends the deletes still waiting for their Undo (keepalive fetch).
  useEffect(() => {
    const onPageHide = () => void sendDeferredDeletes(store, true);
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [store]);
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== 'z' || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || editing(event.target)) return;
      const newest = store.get(toastsAtom).findLast((toast) => toast.action?.label === 'Undo');
      if (!newest) return;
      event.preventDefault();
      void takeAction(store, newest);
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
  const showing = toasts.at(-1);
  return (
    <div className="toaster" role="status" aria-live="polite" aria-label="Notifications">
      {showing ? <ToastItem key={showing.id} toast={showing} /> : null}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const store = useStore();
  const [busy, setBusy] = useState(false);
  const pause = () => pauseToast(toast.id);
  const resume = () => resumeToast(store, toast.id);
  const undo = toast.action?.label === 'Undo';
  return (
    <div className="toast" onMouseEnter={pause} onMouseLeave={resume} onFocus={pause} onBlur={resume}>
      <span className="toast__message">
        {toast.message}
        {toast.waiting ? <span className="toast__waiting outbox-waiting">{MSG.outboxWaiting}</span> : null}
      </span>
      {toast.link ? (
        <Link to={toast.link.to} className="toast__action" onClick={() => takeToast(store, toast.id)}>
          {toast.link.label}
        </Link>
      ) : null}
      {toast.action ? (
        <>
          {/* The shortcut takes an Undo only (a Retry is a new attempt, not a way back). */}
          {undo ? (
            <kbd className="toast__shortcut" aria-hidden="true">
              {UNDO_SHORTCUT}
            </kbd>
          ) : null}
          <button
            type="button"
            className="toast__action"
            aria-keyshortcuts={undo ? 'Control+Z Meta+Z' : undefined}
            title={undo ? `${toast.action.label} (${UNDO_SHORTCUT})` : toast.action.label}
            onClick={() => {
              if (busy) return;
              setBusy(true);
              void takeAction(store, toast);
            }}
            disabled={busy}
          >
            {toast.action.label}
          </button>
        </>
      ) : null}
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => dismissToast(store, toast.id)}>
        ×
      </button>
    </div>
  );
}
