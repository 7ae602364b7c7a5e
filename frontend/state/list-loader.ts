// Fetching the pages of a list (./lists.ts) into the store: page one, the next page, page one again
// over what is loaded (after a reconnect). One request per list at a time; an answer that arrives
// after the list was reset, or after the signed-in user changed, is dropped. Live events that
// arrive during a fetch are applied again after it (./load-guard.ts), so an older answer never
// undoes them. A page that failed says why (./load-failure.ts) and is fetched again by itself when
// the connection returns (./connection-return.ts), if a screen still shows its list.
import { isApiError } from '../api/client.ts';
import { sessionUserAtom } from './atoms.ts';
import { retryWhenBack } from './connection-return.ts';
import { appendPage, firstPage, getList, isShown, listAtom, mergeFirstPage, type PagedList } from './lists.ts';
import { describeFailure } from './load-failure.ts';
import { loadIntoStore } from './load-guard.ts';
import type { Store } from './store.ts';

export interface Page<T> {
  items: readonly T[];
  nextCursor: string | null;
}

export interface ListSource<T> {
  key: string;
  /** One page: page one for a null cursor. */
  fetchPage(cursor: string | null): Promise<Page<T>>;
  /** Puts a page's entities into the store (by id). */
  keep(store: Store, items: readonly T[]): void;
  idOf(item: T): number;
}

/** The request in flight per store and list, and a counter that makes older answers stale. */
interface Flight {
  generation: number;
  busy: boolean;
  /** A cursor was refused and the list started again; a second refusal before any page is an error. */
  restarted: boolean;
}
const flights = new WeakMap<Store, Map<string, Flight>>();

function flightOf(store: Store, key: string): Flight {
  let perStore = flights.get(store);
  if (!perStore) flights.set(store, (perStore = new Map()));
  let flight = perStore.get(key);
  if (!flight) perStore.set(key, (flight = { generation: 0, busy: false, restarted: false }));
  return flight;
}

function setStatus(store: Store, key: string, status: PagedList['status']): void {
  store.set(listAtom(key), (list) => {
    if (list.status === status) return list;
    const { failure: _old, ...rest } = list;
    return { ...rest, status };
  });
}

type Step = (list: PagedList, ids: readonly number[], nextCursor: string | null) => PagedList;

async function run<T>(store: Store, source: ListSource<T>, cursor: string | null, step: Step, fresh: boolean): Promise<void> {
  const flight = flightOf(store, source.key);
  if (fresh) flight.generation += 1;
  else if (flight.busy) return;
  const generation = flight.generation;
  const userId = store.get(sessionUserAtom)?.id ?? null;
  const current = () => flight.generation === generation && (store.get(sessionUserAtom)?.id ?? null) === userId;
  flight.busy = true;
  setStatus(store, source.key, 'loading');
  try {
    await loadIntoStore(store, async () => {
      const page = await source.fetchPage(cursor);
      if (!current()) return;
      // Free before the list says "ready": a screen that wants the next page at once may ask.
      flight.busy = false;
      if (cursor !== null) flight.restarted = false;
      source.keep(store, page.items);
      store.set(listAtom(source.key), (list) => step(list, page.items.map(source.idOf), page.nextCursor));
    });
  } catch (error) {
    if (!current()) return;
    flight.busy = false;
    // A refused cursor (400: malformed, tampered, expired): start again from page one.
    if (cursor !== null && isApiError(error) && error.status === 400 && !flight.restarted) {
      flight.restarted = true;
      return run(store, source, null, (_list, ids, next) => firstPage(ids, next), true);
    }
    const notFound = cursor === null && isApiError(error) && (error.status === 404 || error.status === 403);
    if (notFound) return setStatus(store, source.key, 'notFound');
    console.error(error);
    const failure = describeFailure(error);
    store.set(listAtom(source.key), (list) => ({ ...list, status: 'error', failure }));
    retryWhenBack(store, `list:${source.key}`, () => {
      // Only the failure still showing: not one a newer load replaced, nor a list nobody shows.
      if (flight.generation !== generation || getList(store, source.key).status !== 'error' || !isShown(source.key)) return;
      void (cursor === null ? run(store, source, null, step, true) : loadNextPage(store, source));
    });
  } finally {
    if (flight.generation === generation) flight.busy = false;
  }
}

/** Loads page one, replacing the list when it arrives (the old one shows until then). */
export function loadFirstPage<T>(store: Store, source: ListSource<T>): Promise<void> {
  return run(store, source, null, (_list, ids, next) => firstPage(ids, next), true);
}

/** Loads the next page, unless the last one is here or a request is on its way. */
export function loadNextPage<T>(store: Store, source: ListSource<T>): Promise<void> {
  const list = getList(store, source.key);
  if (list.pages === 0) return loadFirstPage(store, source);
  if (list.nextCursor === null) return Promise.resolve();
  return run(store, source, list.nextCursor, appendPage, false);
}

/** Page one again over the loaded pages (newest-first lists, after a reconnect). */
export function refreshFirstPage<T>(store: Store, source: ListSource<T>): Promise<void> {
  if (getList(store, source.key).pages === 0) return loadFirstPage(store, source);
  return run(store, source, null, mergeFirstPage, true);
}
