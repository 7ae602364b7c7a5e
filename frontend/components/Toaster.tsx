import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { sendDeferredDeletes } from '../state/deferred-deletes.ts';
import { dismissToast, takeToast, type Toast, toastsAtom } from '../state/toasts.ts';

/** How long a toast stays; the timer pauses while the pointer or the focus is on it. */
export const TOAST_MS = 6000;

/**
 * The toasts (frontend/state/toasts.ts), bottom left, above the page but beside what the user is
 * reading. The region is always in the document so screen readers announce what is added to it.
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
  return (
    <div className="toaster" role="status" aria-live="polite" aria-label="Notifications">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const store = useStore();
  const [paused, setPaused] = useState(false);
  const [busy, setBusy] = useState(false);
  const left = useRef(toast.durationMs ?? TOAST_MS);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(store, toast.id), left.current);
    return () => {
      clearTimeout(timer);
      left.current -= Date.now() - started;
    };
  }, [paused, store, toast.id]);

  async function onAction() {
    if (!toast.action || busy) return;
    setBusy(true);
    takeToast(store, toast.id);
    await toast.action.run();
  }

  return (
    <div
      className="toast"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="toast__message">{toast.message}</span>
      {toast.action ? (
        <button type="button" className="toast__action" onClick={() => void onAction()} disabled={busy}>
          {toast.action.label}
        </button>
      ) : null}
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => dismissToast(store, toast.id)}>
        ×
      </button>
    </div>
  );
}
