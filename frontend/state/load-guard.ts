// A screen's load fetches a snapshot and stores it; live events that arrive meanwhile may be newer
// than the answer, which must not undo them. How they are applied again is the live client's
// business (../live/load-replay.ts): it registers itself here when it starts, so the store's
// loaders (./list-loader.ts, the screens' hooks) go through it without knowing of the socket.
import type { Store } from './store.ts';

export type LoadGuard = <T>(load: () => Promise<T>) => Promise<T>;

const guards = new WeakMap<Store, LoadGuard>();

/** Every later `loadIntoStore(store, …)` runs through `guard`, until the returned function is called. */
export function guardLoads(store: Store, guard: LoadGuard): () => void {
  guards.set(store, guard);
  return () => {
    if (guards.get(store) === guard) guards.delete(store);
  };
}

/**
 * What every screen loader goes through: fetch and store a snapshot, then (with a live client)
 * apply again the live events that arrived during the fetch, so a pin created or deleted meanwhile
 * is not undone by an older answer. Without a live client (component tests) it simply runs the load.
 */
export function loadIntoStore<T>(store: Store, load: () => Promise<T>): Promise<T> {
  const guard = guards.get(store);
  return guard ? guard(load) : load();
}
