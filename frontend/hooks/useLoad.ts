import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../api/client.ts';
import { retryWhenBack } from '../state/connection-return.ts';
import { describeFailure, type LoadFailure } from '../state/load-failure.ts';
import { loadIntoStore } from '../state/load-guard.ts';

type LoadStatus = 'loading' | 'ready' | 'notFound' | 'error';

interface LoadState {
  key: string;
  status: LoadStatus;
  failure?: LoadFailure;
}

export interface LoadView {
  status: LoadStatus;
  /**
   * With `error`: what went wrong, in words (offline, or the server's message). It is loaded again
   * by itself when the connection returns (docs/paging.md); offer `reload` unless `offline`.
   */
  failure: LoadFailure | undefined;
  reload: () => void;
}

/**
 * Runs `load` when the component mounts and whenever `key` changes; `load` puts what it fetched
 * into the store. The screen reads the data from the store's atoms, and this status only tells it
 * whether to show a loading, not-found or error state. Live events that arrive while it fetches
 * are applied again after it, so an older answer never undoes them. A load that failed runs again
 * when the browser comes back online or the live socket reconnects.
 */
export function useLoad(load: () => Promise<void>, key: string): LoadView {
  const [state, setState] = useState<LoadState>({ key, status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const store = useStore();
  // `load` is recreated every render; the effect must follow `key` and `attempt` only.
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    let active = true;
    setState((prev) => (prev.key === key && prev.status === 'ready' ? prev : { key, status: 'loading' }));
    loadIntoStore(store, loader.current)
      .then(() => {
        if (active) setState({ key, status: 'ready' });
      })
      .catch((error: unknown) => {
        if (!active) return;
        const notFound = isApiError(error) && (error.status === 404 || error.status === 400 || error.status === 403);
        if (notFound) return setState({ key, status: 'notFound' });
        console.error(error);
        setState({ key, status: 'error', failure: describeFailure(error) });
      });
    return () => {
      active = false;
    };
  }, [key, attempt, loader, store]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const failed = state.key === key && state.status === 'error';
  // While it shows its failure, the connection's return tries it again (once per return).
  useEffect(() => {
    if (!failed) return;
    const token = {};
    return retryWhenBack(store, token, reload);
  }, [failed, store, reload]);

  if (state.key !== key) return { status: 'loading', failure: undefined, reload };
  return { status: state.status, failure: state.failure, reload };
}
