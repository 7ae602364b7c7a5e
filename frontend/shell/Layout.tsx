import { useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { fetchSessionAnswer, type SessionAnswer, takeServedSession } from '../api/auth.ts';
import { siteAtom } from '../state/site.ts';
import { sessionCheckedAtom, sessionUserAtom } from '../state/atoms.ts';
import { useBoardList } from '../hooks/useBoardList.ts';
import { useHeartFavorites } from '../hooks/useFavoriteToggle.ts';
import { clearSession, setSessionUser } from '../state/session.ts';
import { useAfterNavigation } from '../hooks/afterNavigation.ts';
import { PageSkeleton } from '../components/grid/PageSkeleton.tsx';
import { LiveIndicator } from '../components/LiveIndicator.tsx';
import { MODAL_LAYER_ID } from '../components/Modal.tsx';
import { NavBar } from './NavBar.tsx';
import { SaveSheet } from '../components/SaveSheet.tsx';
import { Toaster } from '../components/Toaster.tsx';
import { sendCommentsThrough } from '../api/comments.ts';
import { OutboxStatus } from '../outbox/OutboxStatus.tsx';
import { type OutboxHandlers, setOutboxUser, startOutbox } from '../outbox/outbox.ts';
import { boardPinOutbox } from '../state/board-pin-actions.ts';
import { commentOutbox, postComment } from '../state/comments.ts';
import { deleteOutbox } from '../state/deferred-deletes.ts';
import { favoriteOutbox } from '../state/favorites.ts';

/** What each kind of queued write does on screen (docs/outbox.md). */
const OUTBOX_HANDLERS: OutboxHandlers = { ...favoriteOutbox, ...boardPinOutbox, ...commentOutbox, ...deleteOutbox };

/** The one layout (docs/product.md §2): navigation bar, routed page, modal layer. */
export function Layout() {
  const store = useStore();
  const checked = useAtomValue(sessionCheckedAtom);
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id;
  useAfterNavigation();

  useEffect(() => {
    if (store.get(sessionCheckedAtom)) return;
    const apply = ({ user: found, site }: SessionAnswer) => {
      // The site's settings first: the page that shows once the check is done depends on them.
      if (site) store.set(siteAtom, site);
      if (found) setSessionUser(store, found);
      else clearSession(store);
    };
    // The page's HTML usually says who is signed in; otherwise ask.
    const served = takeServedSession();
    if (served !== undefined) apply(served);
    else fetchSessionAnswer().then(apply, () => clearSession(store));
  }, [store]);

  // The outbox (docs/outbox.md): started once; once the session is known, what waited is shown and sent.
  useEffect(() => {
    const stop = startOutbox(store, OUTBOX_HANDLERS);
    const unhook = sendCommentsThrough((pinId, text) => postComment(store, pinId, text));
    return () => {
      unhook();
      stop();
    };
  }, [store]);
  useEffect(() => {
    if (checked) void setOutboxUser(store, userId);
  }, [store, checked, userId]);

  useHeartFavorites(userId);
  // The boards' newest pins, for the cards' "Saved" (state/save-sheet.ts), once per signed-in visit.
  useBoardList(userId, 'keep');

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="page" tabIndex={-1}>
        {/* The grid skeleton, like the static shell before it (grid/skeleton.ts): nothing jumps. */}
        {checked ? <Outlet /> : <PageSkeleton />}
      </main>
      <LiveIndicator />
      <Toaster />
      <OutboxStatus />
      {checked ? <SaveSheet /> : null}
      <div id={MODAL_LAYER_ID} />
      <ScrollRestoration />
    </>
  );
}
