import { useAtomValue } from 'jotai';
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { sessionUserAtom } from '../state/atoms.ts';

/**
 * What /login and /signup are given when opened from a page: where the visitor was, and `back`,
 * the number of history entries behind the login page that lead back to that page (1: links to
 * the login page push one entry, and login ↔ sign up replace it).
 */
export type ReturnState = { from?: string; back?: number } | null;

/** Anonymous visitors go to /login, and come back here after logging in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useAtomValue(sessionUserAtom);
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/**
 * Signed-in visitors leave /login and /signup. Opened from a page (`back`), they go back to that
 * very history entry — the same visit of the home page (its order and place kept), where a save
 * started signed out finishes (state/save-sheet.ts) — else to `from`, else to /.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const user = useAtomValue(sessionUserAtom);
  const state = useLocation().state as ReturnState;
  if (user) {
    const back = state?.back;
    if (typeof back === 'number' && Number.isInteger(back) && back >= 1 && back <= 2) return <GoBack steps={back} />;
    const from = state?.from;
    const target = from && from.startsWith('/') && !from.startsWith('//') && !/^\/(login|signup)\b/.test(from) ? from : '/';
    return <Navigate to={target} replace />;
  }
  return children;
}

function GoBack({ steps }: { steps: number }) {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return; // once, also when StrictMode runs the effect twice
    done.current = true;
    void navigate(-steps);
  }, [navigate, steps]);
  return null;
}
