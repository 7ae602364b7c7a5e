// The live client (docs/realtime.md): puts together the parts of live updates for one store, and is what
// the rest of the app talks to (through ./hooks.ts); while it runs, every screen's load goes
// through its replay (../state/load-guard.ts).
//
//   ./connection.ts    the socket: one per tab and signed-in user, kept up, status shown
//   ./session-check.ts who this tab is after the server closed its socket
//   ./apply.ts         each server event → the store
//   ./load-replay.ts   events that arrive during a screen's load are applied again after it
//   ./watch.ts         which pins the screens show, told to the server (`pins:watch`)
//   ./visibility.ts    grid cards watch their pin while on screen
//   ./changes.ts       each numbered change applied once; after a reconnect, what was missed is
//                      pulled from GET /api/changes
//   ./resync.ts        when the change log no longer reaches back that far, what the screens
//                      show is fetched again
import { fetchChanges } from '../api/changes.ts';
import type { ChangesAnswer } from '../../contract/changes.ts';
//   ./presence.ts      which pins and boards this tab is present on (`presence:join`)
import type { PresenceTarget } from '../../contract/presence.ts';
import { guardLoads } from '../state/load-guard.ts';
import type { Store } from '../state/store.ts';
import { createEventApplier } from './apply.ts';
import { createChangeTracker, type ChangeTracker } from './changes.ts';
import { LiveConnection, type ConnectionOptions } from './connection.ts';
import { createLoadReplay } from './load-replay.ts';
import { PresenceRegistry } from './presence.ts';
import { forgetPresence } from './presence-state.ts';
import { createResync } from './resync.ts';
import { createVisibilityWatcher } from './visibility.ts';
import { WatchRegistry, type WatchOptions } from './watch.ts';

export interface LiveClientOptions extends ConnectionOptions {
  watch?: WatchOptions;
  /** GET /api/changes (a fake in tests). */
  fetchChanges?: (since: number) => Promise<ChangesAnswer>;
}

export interface LiveClient {
  start(): void;
  stop(): void;
  /** Watches pins until the returned function is called. */
  watchPins(pinIds: readonly number[]): () => void;
  /** A list on screen: `refresh` fetches what it missed, after each reconnect, until released. */
  refreshOnReconnect(refresh: () => Promise<void>): () => void;
  /** Is present on a pin or board (counted in its viewers) until the returned function is called. */
  joinPresence(target: PresenceTarget): () => void;
  /** Watches a grid card's pin while the card is on (or near) the screen. */
  observeCard(element: Element, pinId: number): () => void;
  /** This tab is logging out: close the socket now (its session:ended is expected, not news). */
  prepareForLogout(): void;
  /** Resolves when the catch-up or resync in progress (if any) has been applied. */
  settled(): Promise<void>;
  /** The change log's cursor (tests, the benchmark). */
  changes: ChangeTracker;
  /**
   * Runs a screen's load (fetch, then replace a collection with the answer) and then applies again
   * every event that arrived meanwhile: the answer may predate them, and must not undo them.
   */
  replayDuring<T>(load: () => Promise<T>): Promise<T>;
}

const clients = new WeakMap<Store, LiveClient>();

/** The live client that feeds `store`, if any (none in component tests). */
export function liveClientFor(store: Store): LiveClient | undefined {
  return clients.get(store);
}

/** `release` made safe to call more than once (a screen's cleanup may run twice). */
function once(release: () => void): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}

export function createLiveClient(store: Store, options: LiveClientOptions): LiveClient {
  const watches = new WatchRegistry(options.watch);
  const refreshers = new Set<() => Promise<void>>();
  const presence = new PresenceRegistry({ forgotten: (target) => forgetPresence(store, target) });
  const cards = createVisibilityWatcher(
    (id) => watches.add([id]),
    (id) => watches.remove([id]),
  );
  const replay = createLoadReplay(createEventApplier(store));
  const resync = createResync(store, { watchedPins: () => watches.watched(), listRefreshers: () => [...refreshers] }, replay);
  const changes = createChangeTracker({
    apply: (name, payload) => replay.apply(name, payload),
    fetchChanges: options.fetchChanges ?? fetchChanges,
    refetchScreens: (isCurrent) => resync.run(isCurrent),
  });
  const connection = new LiveConnection(store, options, {
    connected(send, reconnect, isCurrent, sendPresence) {
      presence.connected(sendPresence);
      const watched = watches.connected(send);
      // Catch up once the pins are watched again, so nothing falls between the pull and the events.
      changes.connected(reconnect, isCurrent, watched);
    },
    disconnected: () => {
      watches.disconnected();
      presence.disconnected();
    },
    event: (name, payload) => changes.event(name, payload),
  });

  let releaseLoads = () => {};
  const client: LiveClient = {
    start() {
      clients.set(store, client);
      releaseLoads = guardLoads(store, (load) => replay.during(load));
      connection.start();
    },
    stop() {
      connection.stop();
      releaseLoads();
      if (clients.get(store) === client) clients.delete(store);
    },
    watchPins(pinIds) {
      const ids = [...pinIds];
      watches.add(ids);
      return once(() => watches.remove(ids));
    },
    refreshOnReconnect(refresh) {
      // Wrapped, so one function registered twice (two screens) counts twice.
      const entry = () => refresh();
      refreshers.add(entry);
      return once(() => void refreshers.delete(entry));
    },
    joinPresence(target) {
      presence.add(target);
      return once(() => presence.remove(target));
    },
    observeCard: (element, pinId) => cards.observe(element, pinId),
    prepareForLogout: () => connection.prepareForLogout(),
    settled: async () => {
      await changes.settled();
      await resync.settled();
    },
    changes,
    replayDuring: (load) => replay.during(load),
  };
  return client;
}
