// After a reconnect the events sent while this tab was cut off are lost for good (Socket.IO keeps
// nothing for a socket that is away), so what the screens show is fetched again, and only that:
// the pins on screen one by one (up to MAX_SINGLE_PINS: the cards in view, a pin's page), and page
// one of every list on screen, merged over the pages loaded (each list says how, through
// `refreshOnReconnect`). Like every load, the events that arrive during the fetch are applied again
// after it (./load-replay.ts). Answers are dropped when the socket or the user changed meanwhile,
// or when a newer resync started.
import type { Pin } from '../../contract/index.ts';
import { isApiError } from '../api/client.ts';
import { fetchPin } from '../api/pins.ts';
import { pinsByIdAtom, sessionUserAtom } from '../state/atoms.ts';
import { upsertPin } from '../state/pins.ts';
import type { Store } from '../state/store.ts';
import { dropDeletedPin } from './apply.ts';
import type { LoadReplay } from './load-replay.ts';

/** At most this many watched pins are fetched again one by one. */
const MAX_SINGLE_PINS = 50;

interface Resync {
  /** Fetches again what the screens show; `isCurrent()` false: the socket is gone, drop the answers. */
  run(isCurrent: () => boolean): Promise<void>;
  /** Resolves when the resync in progress (if any) has been applied. */
  settled(): Promise<void>;
}

/** What the screens show. */
interface Shown {
  watchedPins(): number[];
  /** Each list on screen: fetches its page one again and merges it (drops stale answers itself). */
  listRefreshers(): Array<() => Promise<void>>;
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

  async function refetchPins(isLatest: () => boolean): Promise<void> {
    const uid = store.get(sessionUserAtom)?.id ?? null;
    const known = store.get(pinsByIdAtom);
    const singles = shown
      .watchedPins()
      .filter((id) => known[id])
      .slice(0, MAX_SINGLE_PINS);
    const recording = replay.record();
    try {
      const answers = await Promise.allSettled(singles.map((id) => fetchPinOrGone(id)));
      if (!isLatest() || (store.get(sessionUserAtom)?.id ?? null) !== uid) return;
      answers.forEach((answer, i) => {
        const id = singles[i] as number;
        if (answer.status === 'rejected') console.warn(`Live updates: could not refresh pin ${id}`, answer.reason);
        else if (answer.value) upsertPin(store, answer.value);
        else dropDeletedPin(store, id);
      });
      recording.replay();
    } finally {
      recording.stop();
    }
  }

  async function refreshLists(): Promise<void> {
    const answers = await Promise.allSettled(shown.listRefreshers().map((refresh) => refresh()));
    for (const answer of answers) if (answer.status === 'rejected') console.warn('Live updates: could not refresh a list', answer.reason);
  }

  return {
    run(isCurrent) {
      if (!isCurrent()) return Promise.resolve();
      const isLatest = () => current === done && isCurrent();
      const done: Promise<void> = Promise.all([refetchPins(isLatest), refreshLists()])
        .then(() => undefined)
        .finally(() => {
          if (current === done) current = null;
        });
      current = done;
      return done;
    },
    settled: () => current ?? Promise.resolve(),
  };
}
