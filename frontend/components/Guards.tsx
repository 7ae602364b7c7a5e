import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { sessionUserAtom } from '../state/atoms.ts';

type FromState = { from?: string } | null;

/** Anonymous visitors go to /login, and come back here after logging in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useAtomValue(sessionUserAtom);
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/** Signed-in visitors leave /login and /signup: back where they came from, else to /. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const user = useAtomValue(sessionUserAtom);
  const location = useLocation();
  if (user) {
    const from = (location.state as FromState)?.from;
    const target = from && from.startsWith('/') && !from.startsWith('//') && !/^\/(login|signup)\b/.test(from) ? from : '/';
    return <Navigate to={target} replace />;
  }
  return children;
}
