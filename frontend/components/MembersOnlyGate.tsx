import { useAtomValue } from 'jotai';
import { Navigate, Outlet, useLocation } from 'react-router';
import { sessionUserAtom } from '../state/atoms.ts';
import { siteAtom } from '../state/site.ts';

/** The pages a visitor may open on a members-only site: joining, a password reset, a board's secret link. */
const OPEN_PAGES = /^\/(login|signup|reset-password|forgot-password|b\/)/;

/**
 * On a members-only site (docs/site-access.md) an anonymous visitor gets the log-in page for every
 * other page, and comes back to the page they asked for once signed in (as RequireAuth does).
 */
export function MembersOnlyGate() {
  const site = useAtomValue(siteAtom);
  const user = useAtomValue(sessionUserAtom);
  const location = useLocation();
  if (site.visibility === 'members' && !user && !OPEN_PAGES.test(location.pathname)) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <Outlet />;
}
