import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';

// A route's page code that cannot be loaded (docs/installable-app.md): every page but the home page
// is a chunk of its own, fetched when its route is first opened. Offline, or after a new version
// whose chunks have other names (the old ones answer 404), that fetch fails; the route then shows
// MissingPageCode instead of an error page.

/** Thrown by a route's lazy load when its chunk could not be fetched. */
export class PageCodeMissing extends Error {
  /** True when the server could not be reached: the page comes when the network does. */
  readonly offline: boolean;
  constructor(offline: boolean, cause: unknown) {
    super(offline ? 'The page could not be loaded: offline.' : 'The page could not be loaded: its code is gone (a new version?).', { cause });
    this.name = 'PageCodeMissing';
    this.offline = offline;
  }
}

/**
 * Whether the server answers at all. A failed chunk looks the same offline and after an upgrade; a
 * HEAD of a small file of this site tells them apart (the service worker lets it through).
 */
async function serverAnswers(): Promise<boolean> {
  if (!navigator.onLine) return false;
  try {
    await fetch('/manifest.webmanifest', { method: 'HEAD', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/** Where the one reload for a new version was made (this tab's address then). */
const RELOAD_KEY = 'pinboard:reloaded-for-page-code';

/**
 * A lazy route's properties from its page code: `show` makes the element of what `load` gave. A
 * load that fails gives a loader that throws PageCodeMissing, for the route's error element
 * (components/ErrorPage.tsx): React Router drops an error thrown by `lazy` itself when the route
 * has no loader, and the page stays blank. A success forgets an earlier reload.
 */
export async function loadPageCode<T>(load: () => Promise<T>, show: (code: T) => ReactNode): Promise<Pick<RouteObject, 'element' | 'loader'>> {
  let code: T;
  try {
    code = await load();
  } catch (error) {
    const missing = new PageCodeMissing(!(await serverAnswers()), error);
    return {
      loader: () => {
        throw missing;
      },
    };
  }
  try {
    sessionStorage.removeItem(RELOAD_KEY);
  } catch {
    // no session storage: nothing was remembered either
  }
  return { element: show(code) };
}

const here = () => `${window.location.pathname}${window.location.search}`;

/** True when this address was already reloaded for missing page code (so it must not be again). */
export function reloadedHere(): boolean {
  try {
    return sessionStorage.getItem(RELOAD_KEY) === here();
  } catch {
    return true; // without a memory of the attempt, never reload by ourselves: no loop
  }
}

/** Reloads the page once for a new version, remembering it so the next failure does not reload again. */
export function reloadForNewVersion(): void {
  sessionStorage.setItem(RELOAD_KEY, here());
  window.location.reload();
}
