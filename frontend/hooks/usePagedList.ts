import { useAtomValue, useStore, type Atom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useNavigationType } from 'react-router';
import { liveClientFor } from '../live/client.ts';
import type { ById } from '../state/atoms.ts';
import { loadFirstPage, loadNextPage, refreshFirstPage, type ListSource } from '../state/list-loader.ts';
import { listAtom, showList, type ListStatus } from '../state/lists.ts';
import type { LoadFailure } from '../state/load-failure.ts';

export interface PagedListOptions<T> extends Omit<ListSource<T>, 'key'> {
  /** The list's key (./state/lists.ts LIST); null while there is nothing to load (no user yet). */
  key: string | null;
  /** The entities the ids refer to: an id whose entity is gone (deleted) is not shown. */
  entities: Atom<ById<unknown>>;
  /**
   * Coming back to a list already loaded: `keep` it as it is (the home grid of a visit), or
   * `reload` page one unless this is a Back/Forward (the default: a new visit shows fresh data,
   * Back returns to the pages and the place the reader left).
   */
  onShow?: 'keep' | 'reload';
  /** After a reconnect: fetch page one again over the loaded pages (the default), or this. */
  onReconnect?: () => Promise<void>;
}

export interface PagedListView {
  /** The ids to show, in order. */
  ids: readonly number[];
  status: ListStatus;
  /**
   * With `error`: what went wrong, in words. An offline failure loads by itself when the connection
   * returns (docs/paging.md); others offer "Try again" too.
   */
  failure: LoadFailure | undefined;
  /** Page one has arrived (so an empty `ids` means an empty list). */
  loaded: boolean;
  hasMore: boolean;
  loadMore: () => void;
  /** Page one again, replacing the list (docs/product.md §4: the list is reloaded after a delete). */
  reload: () => Promise<void>;
}

const noop = () => undefined;

/** One screen's paged list: page one on show, `loadMore` for the next, ids of entities that exist. */
export function usePagedList<T>(options: PagedListOptions<T>): PagedListView {
  const store = useStore();
  const { key, entities, onShow = 'reload' } = options;
  const navigation = useNavigationType();
  const latest = useRef(options);
  latest.current = options;
  const source = useMemo((): ListSource<T> | null => {
    if (key === null) return null;
    return {
      key,
      fetchPage: (cursor) => latest.current.fetchPage(cursor),
      keep: (s, items) => latest.current.keep(s, items),
      idOf: (item) => latest.current.idOf(item),
    };
  }, [key]);

  const list = useAtomValue(useMemo(() => listAtom(key ?? 'none'), [key]));
  const byId = useAtomValue(entities);
  const ids = useMemo(() => list.ids.filter((id) => byId[id] !== undefined), [list.ids, byId]);

  // Load on show; a Back (POP) returns to what was loaded.
  const navigationRef = useRef(navigation);
  navigationRef.current = navigation;
  useEffect(() => {
    if (!source) return;
    const release = showList(source.key);
    const loaded = store.get(listAtom(source.key)).pages > 0;
    if (!loaded || (onShow === 'reload' && navigationRef.current !== 'POP')) void loadFirstPage(store, source);
    return release;
  }, [source, store, onShow]);

  // After a reconnect, what was missed is fetched again.
  const client = liveClientFor(store);
  useEffect(() => {
    if (!source || !client) return;
    return client.refreshOnReconnect(() => (latest.current.onReconnect ? latest.current.onReconnect() : refreshFirstPage(store, source)));
  }, [client, source, store]);

  const loadMore = useCallback(() => {
    if (source) void loadNextPage(store, source);
  }, [source, store]);
  const reload = useCallback(() => (source ? loadFirstPage(store, source) : Promise.resolve()), [source, store]);

  return {
    ids,
    status: list.status,
    failure: list.status === 'error' ? list.failure : undefined,
    loaded: list.pages > 0,
    hasMore: list.pages > 0 && list.nextCursor !== null,
    loadMore: source ? loadMore : noop,
    reload,
  };
}
