// After a reconnect the events sent while this tab was cut off are lost for good (Socket.IO keeps
// nothing for a socket that is away), so what the screens show is fetched again, and only that:
// the pin list if it was loaded (else the watched pins one by one, up to MAX_SINGLE_PINS), the
// signed-in user's favorites and boards if loaded, and the comments of the pins whose comment lists
// are open. Like every load, the events that arrive during the fetch are applied again after it
// (./load-replay.ts). Answers are dropped when the socket or the user changed meanwhile, or when a
// newer resync started.
import type { Board, Comment, Favorite, Pin } from '../../contract/index.ts';
import { fetchBoards } from '../api/boards.ts';
import { isApiError } from '../api/client.ts';
import { fetchComments } from '../api/comments.ts';
import { fetchFavorites } from '../api/favorites.ts';
import { fetchPin, fetchPins } from '../api/pins.ts';
import { boardsByIdAtom, boardsLoadedAtom, favoritesLoadedAtom, pinsByIdAtom, pinsLoadedAtom, sessionUserAtom } from '../state/atoms.ts';
import { setAllBoards } from '../state/boards.ts';
import { setPinComments } from '../state/comments.ts';
import { setAllFavorites } from '../state/favorites.ts';
import { setAllPins, upsertPin } from '../state/pins.ts';
import type { Store } from '../state/store.ts';
import { dropDeletedPin, isPinDeleted } from './apply.ts';
import type { LoadReplay } from './load-replay.ts';

/** Without the full pin list, at most this many watched pins are fetched again one by one. */
const MAX_SINGLE_PINS = 50;

interface Resync {
  /** Fetches again what the screens show; `isCurrent()` false: the socket is gone, drop the answers. */
  run(isCurrent: () => boolean): Promise<void>;
  /** Resolves when the resync in progress (if any) has been applied. */
  settled(): Promise<void>;
}

/** What the screens show beyond the collections in the store. */
interface Shown {
  watchedPins(): number[];
  commentPins(): number[];
}

/** A fetch that was not needed (null), or how it went. */
type Settled<T> = PromiseSettledResult<T> | null;

function settle<T>(promise: Promise<T> | null): Promise<Settled<T>> {
  if (!promise) return Promise.resolve(null);
  return promise.then(
    (value): Settled<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): Settled<T> => ({ status: 'rejected', reason }),
  );
}

/** The answer, if the fetch was made and worked; a failure is logged (the screen keeps what it had). */
function answer<T>(what: string, result: Settled<T>): T | undefined {
  if (result?.status === 'rejected') console.warn(`Live updates: could not refresh ${what}`, result.reason);
  return result?.status === 'fulfilled' ? result.value : undefined;
}

/** A pin, or null once it is gone (404). */
function fetchPinOrGone(id: number): Promise<Pin | null> {
  return fetchPin(id).catch((error: unknown) => {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  });
}

export function createResync(store: Store, shown: Shown, replay: LoadReplay): Resync {
  /** The resync in progress; a newer one replaces it, and the older one's answers are dropped. */
  let current: Promise<void> | null = null;

  async function fetchAndApply(isLatest: () => boolean): Promise<void> {
    const uid = store.get(sessionUserAtom)?.id ?? null;
    const knownPins = store.get(pinsByIdAtom);
    const pinsLoaded = store.get(pinsLoadedAtom);
    const singles = pinsLoaded ? [] : shown.watchedPins().filter((id) => knownPins[id]).slice(0, MAX_SINGLE_PINS);
    const boardsShown = store.get(boardsLoadedAtom) || Object.keys(store.get(boardsByIdAtom)).length > 0;
    const recording = replay.record();
    try {
      const [pins, single, favorites, boards, comments] = await Promise.all([
        settle<Pin[]>(pinsLoaded ? fetchPins() : null),
        Promise.all(singles.map((id) => settle(fetchPinOrGone(id)).then((result) => [id, result] as const))),
        settle<Favorite[]>(uid !== null && store.get(favoritesLoadedAtom) ? fetchFavorites() : null),
        settle<Board[]>(uid !== null && boardsShown ? fetchBoards() : null),
        Promise.all(shown.commentPins().map((id) => settle<Comment[]>(fetchComments(id)).then((result) => [id, result] as const))),
      ]);
      if (!isLatest() || (store.get(sessionUserAtom)?.id ?? null) !== uid) return;

      const pinList = answer('pins', pins);
      if (pinList) {
        // Known before the fetch began and missing from its answer: deleted while we were away
        // (a pin created during the fetch may be in the store already, and is not in `knownPins`).
        const list = pinList.filter((pin) => !isPinDeleted(store, pin.id));
        const now = new Set(list.map((pin) => pin.id));
        setAllPins(store, list);
        for (const id of Object.keys(knownPins).map(Number)) if (!now.has(id)) dropDeletedPin(store, id);
      }
      for (const [id, result] of single) {
        const pin = answer(`pin ${id}`, result);
        if (pin) upsertPin(store, pin);
        else if (pin === null) dropDeletedPin(store, id);
      }
      const favoriteList = answer('favorites', favorites);
      if (favoriteList) setAllFavorites(store, favoriteList.filter((fav) => !isPinDeleted(store, fav.pin_id)));
      const boardList = answer('boards', boards);
      if (boardList) setAllBoards(store, boardList.map((b) => ({ ...b, pins: b.pins.filter((p) => !isPinDeleted(store, p.id)) })));
      for (const [id, result] of comments) {
        const list = answer(`comments of pin ${id}`, result);
        if (list && !isPinDeleted(store, id)) setPinComments(store, id, list);
      }
      recording.replay();
    } finally {
      recording.stop();
    }
  }

  return {
    run(isCurrent) {
      if (!isCurrent()) return Promise.resolve();
      const done: Promise<void> = fetchAndApply(() => current === done && isCurrent()).finally(() => {
        if (current === done) current = null;
      });
      current = done;
      return done;
    },
    settled: () => current ?? Promise.resolve(),
  };
}
