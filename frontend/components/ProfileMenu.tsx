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
      <ul className="profile__links profile__links--compact">
        <li>
          <Link to="/pins">Pins</Link>
        </li>
        <li>
          <Link to="/boards">Boards</Link>
        </li>
        <li>
          <Link to="/pins/new">Add New Pin</Link>
        </li>
        <li>
          <Link to="/boards/create">Add New Board</Link>
        </li>
      </ul>
      <ul className="profile__links">
        <li>
          <Link to="/duplicates">Duplicates</Link>
        </li>
        <li>
          <Link to="/import-export">Import / Export</Link>
        </li>
        <li>
          <Link to="/tokens">Tokens</Link>
        </li>
        {invites ? (
          <li>
            <Link to="/invites">Invite people</Link>
          </li>
        ) : null}
        <li>
          <Link to="/connect">Browser extension</Link>
        </li>
        <li>
          <Link to="/settings">Settings</Link>
        </li>
      </ul>
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
