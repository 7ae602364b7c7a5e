import { useAtomValue, useStore } from 'jotai';
import type { User } from '../../contract/index.ts';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { logout } from '../api/auth.ts';
import { sendDeferredDeletes } from '../state/deferred-deletes.ts';
import { liveClientFor } from '../live/client.ts';
import { sessionUserAtom } from '../state/atoms.ts';
import { siteAtom } from '../state/site.ts';
import { clearSession, displayName } from '../state/session.ts';
import { ChevronDownIcon, UserIcon } from './Icons.tsx';
import { runAfterNavigation } from '../hooks/afterNavigation.ts';
import { useDismiss } from '../hooks/useDismiss.ts';

/** The bar's pages again (compact), then the signed-in user's tools; Invite people only while sign-ups are not closed. */
const PAGES = [
  { to: '/pins', text: 'Pins' },
  { to: '/boards', text: 'Boards' },
  { to: '/pins/new', text: 'Add New Pin' },
  { to: '/boards/create', text: 'Add New Board' },
];
const TOOLS = [
  { to: '/duplicates', text: 'Duplicates' },
  { to: '/import-export', text: 'Import / Export' },
  { to: '/tokens', text: 'Tokens' },
  { to: '/invites', text: 'Invite people' },
  { to: '/connect', text: 'Browser extension' },
  { to: '/settings', text: 'Settings' },
];

function LinkList({ className, links }: { className: string; links: ReadonlyArray<{ to: string; text: string }> }) {
  return (
    <ul className={className}>
      {links.map(({ to, text }) => (
        <li key={to}>
          <Link to={to}>{text}</Link>
        </li>
      ))}
    </ul>
  );
}

/** The menu of a signed-in user: who they are, their pages, their tools and Log Out. */
function SignedInMenu({ user, invites, onLogout }: { user: User; invites: boolean; onLogout: () => void }) {
  return (
    <>
      <div className="profile__who">
        <p className="profile__hello">Hello, {displayName(user)}</p>
        <p className="profile__email">{user.email}</p>
        {/* One's profile is /pins: one's pins, boards and pin count (docs/profiles.md). */}
        <Link to="/pins" className="profile__own">
          Your profile
        </Link>
      </div>
      <LinkList className="profile__links profile__links--compact" links={PAGES} />
      <LinkList className="profile__links" links={invites ? TOOLS : TOOLS.filter((link) => link.to !== '/invites')} />
      <button type="button" className="button button--secondary button--block" onClick={onLogout}>
        Log Out
      </button>
    </>
  );
}

/** The profile toggle of the navigation bar (docs/product.md §2); closes on outside press and Escape. */
export function ProfileMenu() {
  const store = useStore();
  const user = useAtomValue(sessionUserAtom);
  const { signups } = useAtomValue(siteAtom);
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close, button);

  // Any navigation closes the menu.
  useEffect(() => setOpen(false), [location.pathname]);

  async function onLogout() {
    setOpen(false);
    // This tab's own logout: its socket's session:ended must not sign it out before it has left
    // a signed-in-only page (see below).
    liveClientFor(store)?.prepareForLogout();
    try {
      await sendDeferredDeletes(store); // while the session can still delete
      await logout();
    } catch (error) {
      console.error(error);
    }
    // Leave a signed-in-only page before the session goes, so it does not bounce to /login.
    if (location.pathname === '/') clearSession(store);
    else {
      runAfterNavigation(() => clearSession(store));
      await navigate('/');
    }
  }

  // As the bar's links: back to this history entry once signed in (Guards.tsx).
  const onAuthPage = /^\/(login|signup)$/.test(location.pathname);
  const returnState = onAuthPage ? location.state : { from: `${location.pathname}${location.search}`, back: 1 };

  return (
    <div className="profile" ref={root}>
      <button ref={button} type="button" className="profile__toggle" aria-expanded={open} aria-controls={menuId} aria-label="Profile menu" onClick={() => setOpen((v) => !v)}>
        <UserIcon />
        <ChevronDownIcon className={`profile__chevron${open ? ' profile__chevron--open' : ''}`} />
      </button>
      <div id={menuId} className="profile__menu" hidden={!open}>
        {user ? (
          <SignedInMenu user={user} invites={signups !== 'closed'} onLogout={() => void onLogout()} />
        ) : (
          <ul className="profile__links">
            <li>
              <Link to="/login" state={returnState} replace={onAuthPage}>
                Log In
              </Link>
            </li>
            {signups === 'open' ? (
              <li>
                <Link to="/signup" state={returnState} replace={onAuthPage}>
                  Sign Up
                </Link>
              </li>
            ) : null}
          </ul>
        )}
      </div>
    </div>
  );
}
