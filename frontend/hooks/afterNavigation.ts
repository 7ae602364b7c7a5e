import { useEffect } from 'react';
import { useLocation } from 'react-router';

// React Router renders navigations inside a transition, while Jotai updates render at once. A
// change that must only be seen once the next page is showing (clearing the session on logout,
// dropping a just-deleted pin) is queued here and applied when the new location has rendered, so
// the old page never re-renders without its data (e.g. a signed-in page bouncing to /login).
const pending: Array<() => void> = [];

export function runAfterNavigation(fn: () => void): void {
  pending.push(fn);
}

/** Called once, by the layout: applies the queued changes after each navigation. */
export function useAfterNavigation(): void {
  const location = useLocation();
  useEffect(() => {
    while (pending.length) pending.shift()?.();
  }, [location.key]);
}
