import { useEffect, useState } from 'react';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { SkeletonGrid } from './grid/SkeletonGrid.tsx';
import { reloadedHere, reloadForNewVersion } from './page-code.ts';
import './missing-page-code.css';

export const OFFLINE_TITLE = "You're offline";
export const OFFLINE_TEXT = "This page opens when you're back online.";
export const UPDATED_TITLE = 'Pinboard was updated';
export const UPDATED_TEXT = 'This page is part of the new version. Reload to open it.';

/** Offline: says so, and opens the page by itself as soon as the browser is back online. */
function Offline() {
  useDocumentTitle(OFFLINE_TITLE);
  useEffect(() => {
    const open = () => window.location.reload();
    window.addEventListener('online', open);
    return () => window.removeEventListener('online', open);
  }, []);
  return (
    <div className="status-page missing-page-code" role="status">
      <h1>{OFFLINE_TITLE}</h1>
      <p>{OFFLINE_TEXT}</p>
    </div>
  );
}

/**
 * Online, the page's code is gone: a new version was put out since this tab opened. One reload
 * brings the new version; if one was already made for this address, the user is asked instead.
 */
function Updated() {
  const [reloading] = useState(() => !reloadedHere());
  useDocumentTitle(reloading ? undefined : UPDATED_TITLE);
  useEffect(() => {
    if (reloading) reloadForNewVersion();
  }, [reloading]);
  if (reloading) return <SkeletonGrid text="Loading…" />;
  return (
    <div className="status-page missing-page-code" role="alert">
      <h1>{UPDATED_TITLE}</h1>
      <p>{UPDATED_TEXT}</p>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </p>
    </div>
  );
}

/** What a route shows when its page code could not be loaded (components/page-code.ts). */
export function MissingPageCode({ offline }: { offline: boolean }) {
  return offline ? <Offline /> : <Updated />;
}
