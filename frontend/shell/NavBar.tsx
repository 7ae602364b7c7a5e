import { useAtomValue } from 'jotai';
import { Link, NavLink, useLocation } from 'react-router';
import { sessionCheckedAtom, sessionUserAtom } from '../state/atoms.ts';
import { siteAtom } from '../state/site.ts';
import { HeartIcon, PinLogoIcon, PlusIcon } from '../components/Icons.tsx';
import { ProfileMenu } from '../components/ProfileMenu.tsx';
import { SearchBox } from '../search/SearchBox.tsx';

export function NavBar() {
  const user = useAtomValue(sessionUserAtom);
  const site = useAtomValue(siteAtom);
  // The links wait for the session check: guest links swapped for a member's moved the bar (a
  // layout shift on every page); links that appear where there were none move nothing.
  const checked = useAtomValue(sessionCheckedAtom);
  const location = useLocation();
  // GuestOnly sends the visitor back to this history entry once signed in (Guards.tsx). Between
  // /login and /signup the entry is replaced, so the way back stays one entry long.
  const onAuthPage = /^\/(login|signup)$/.test(location.pathname);
  const back = onAuthPage ? location.state : { from: `${location.pathname}${location.search}`, back: 1 };
  return (
    <header className="nav">
      <nav className="nav__inner" aria-label="Main">
        <Link to="/" className="nav__logo">
          <PinLogoIcon />
          <span>Pinboard</span>
        </Link>
        {/* Before the spacer: the links appear on the right after the session check, and the
            search must not move when they do (a layout shift). */}
        {/* A members-only site answers a visitor's search with 401: no box to type into (docs/site-access.md). */}
        {site.visibility === 'members' && !user ? null : <SearchBox />}
        <div className="nav__spacer" />
        {!checked ? null : user ? (
          <ul className="nav__links">
            <li>
              <NavLink to="/favorites" className="nav__heart" aria-label="Favorites" title="Favorites">
                <HeartIcon />
              </NavLink>
            </li>
            {/* Phones: creating is one tap from the bar (the wide bar has "Add New Pin" instead). */}
            <li className="nav__narrow">
              <NavLink to="/pins/new" className="nav__create" aria-label="Create" title="Create">
                <PlusIcon />
              </NavLink>
            </li>
            <li className="nav__wide">
              <NavLink to="/pins" end>
                Pins
              </NavLink>
            </li>
            <li className="nav__wide">
              <NavLink to="/boards" end>
                Boards
              </NavLink>
            </li>
            <li className="nav__wide">
              <NavLink to="/pins/new">Add New Pin</NavLink>
            </li>
            <li className="nav__wide">
              <NavLink to="/boards/create">Add New Board</NavLink>
            </li>
          </ul>
        ) : (
          <ul className="nav__links nav__links--guest">
            <li>
              <NavLink to="/login" state={back} replace={onAuthPage}>
                Log in
              </NavLink>
            </li>
            {site.signups === 'open' ? (
              <li>
                <NavLink to="/signup" state={back} replace={onAuthPage} className="nav__signup">
                  Sign up
                </NavLink>
              </li>
            ) : null}
          </ul>
        )}
        <ProfileMenu />
      </nav>
    </header>
  );
}
