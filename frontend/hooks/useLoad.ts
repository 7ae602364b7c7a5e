import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../api/client.ts';
import { loadIntoStore } from '../state/load-guard.ts';

type LoadStatus = 'loading' | 'ready' | 'notFound' | 'error';

/**
 * Runs `load` when the component mounts and whenever `key` changes; `load` puts what it fetched
 * into the store. The screen reads the data from the store's atoms, and this status only tells it
 * whether to show a loading, not-found or error state. Live events that arrive while it fetches
 * are applied again after it, so an older answer never undoes them.
 */
export function useLoad(load: () => Promise<void>, key: string): { status: LoadStatus; reload: () => void } {
  const [state, setState] = useState<{ key: string; status: LoadStatus }>({ key, status: 'loading' });
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
        if (!notFound) console.error(error);
        setState({ key, status: notFound ? 'notFound' : 'error' });
      });
    return () => {
      active = false;
    };
  }, [key, attempt, loader, store]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { status: state.key === key ? state.status : 'loading', reload };
}
