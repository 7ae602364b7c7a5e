import type { LoadFailure } from '../state/load-failure.ts';
import './load-failed.css';

/**
 * A load that failed, in words (docs/paging.md): offline, it says it will load when the reader is
 * back (and does, by itself); otherwise the server's message and, given `onRetry`, "Try again".
 * `title`: what could not be loaded ("Couldn't load this pin."), above the words. `compact`: under a grid whose next page failed (the grid's footer has its own button), rather
 * than in place of a whole screen.
 */
export function LoadFailed({ title, failure, onRetry, compact = false }: { title?: string; failure: LoadFailure | undefined; onRetry?: () => void; compact?: boolean }) {
  return (
    <div className={compact ? 'load-failed load-failed--compact' : 'status load-failed'} role="status">
      {title ? <p className="status__title">{title}</p> : null}
      {failure ? <p className="load-failed__words">{failure.message}</p> : null}
      {failure?.offline || !onRetry ? null : (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
