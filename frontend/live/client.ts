// The live client (DESIGN §5): one socket per tab, opened after the initial session check and
// opened anew whenever the signed-in user changes (login, logout, session:ended), so the socket
// always carries the current session cookie. Every server event goes to the store through
// ./apply.ts; the pins the screens show are watched through ./watch.ts; after a reconnect
// everything watched is watched again and what the screens show is fetched again, so no event
// missed while disconnected lasts.
//
// The socket itself comes from `openSocket` (socket.io-client in ./socket.ts, a fake in tests).
import type { WatchAck } from '../../contract/events.ts';
import type { Board, Comment, Favorite, Pin } from '../../contract/index.ts';
import { fetchSession } from '../api/auth.ts';
import { fetchBoards } from '../api/boards.ts';
import { isApiError } from '../api/client.ts';
import { fetchComments } from '../api/comments.ts';
import { fetchFavorites } from '../api/favorites.ts';
import { fetchPin, fetchPins } from '../api/pins.ts';
import {
  boardsByIdAtom,
  boardsLoadedAtom,
  favoritesLoadedAtom,
  pinsByIdAtom,
  pinsLoadedAtom,
  sessionCheckedAtom,
  sessionUserAtom,
} from '../state/atoms.ts';
import { setAllBoards } from '../state/boards.ts';
import { setPinComments } from '../state/comments.ts';
import { setAllFavorites } from '../state/favorites.ts';
import { setAllPins, upsertPin } from '../state/pins.ts';
import { clearSession, setSessionUser } from '../state/session.ts';
import type { Store } from '../state/store.ts';
import { createEventApplier, dropDeletedPin, isPinDeleted } from './apply.ts';
import { liveStatusAtom } from './atoms.ts';
import { createVisibilityWatcher } from './visibility.ts';
import { WatchRegistry, type WatchKind, type WatchOptions } from './watch.ts';

/** The part of a socket.io-client Socket the live client uses. */
export interface LiveSocket {
  readonly active: boolean;
  on(event: 'connect', listener: () => void): unknown;
  on(event: 'disconnect', listener: (reason: string) => void): unknown;
  on(event: 'connect_error', listener: (error: Error) => void): unknown;
  onAny(listener: (event: string, ...args: unknown[]) => void): unknown;
  emit(event: WatchKind, payload: { pinIds: number[] }, ack: (answer: WatchAck) => void): unknown;
  removeAllListeners(): unknown;
  offAny(): unknown;
  disconnect(): unknown;
}

export interface LiveClientOptions {
  openSocket: () => LiveSocket | Promise<LiveSocket>;
  /** A watch message without an answer after this long counts as failed. */
  ackTimeoutMs?: number;
  /** First delay before opening a socket again when one could not be opened (doubles, up to 30 s). */
  retryMs?: number;
  watch?: WatchOptions;
  /** At most this many single pins are fetched again after a reconnect when the pin list is not loaded. */
  maxSinglePinRefetch?: number;
}

export interface LiveClient {
  readonly store: Store;
  start(): void;
  stop(): void;
  /** Watches pins until the returned function is called. */
  watchPins(pinIds: readonly number[]): () => void;
  /** Watches a pin whose comment list is shown: its comments are fetched again after a reconnect. */
  watchComments(pinId: number): () => void;
  /** Watches a grid card's pin while the card is on (or near) the screen. */
  observeCard(element: Element, pinId: number): () => void;
  /** This tab is logging out: close the socket now (its session:ended is expected, not news). */
  prepareForLogout(): void;
  /** For tests and diagnostics. */
  readonly watches: WatchRegistry;
  /** Resolves when the resync in progress (if any) has been applied. */
  settled(): Promise<void>;
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

/**
 * What every screen loader goes through: fetch and store a snapshot, then replay the live events
 * that arrived during the fetch (idempotent), so a pin created or deleted meanwhile is not undone
 * by an older answer. Without a live client (component tests) it simply runs the load.
 */
export function loadWithLiveReplay<T>(store: Store, load: () => Promise<T>): Promise<T> {
  const client = clients.get(store);
  return client ? client.replayDuring(load) : load();
}

type Settled<T> = PromiseSettledResult<T> | null;

function settle<T>(promise: Promise<T> | null): Promise<Settled<T>> {
  if (!promise) return Promise.resolve(null);
  return promise.then(
    (value): Settled<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): Settled<T> => ({ status: 'rejected', reason }),
  );
}

export function createLiveClient(store: Store, options: LiveClientOptions): LiveClient {
  const ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
  const firstRetryMs = options.retryMs ?? 1_000;
  const maxSinglePinRefetch = options.maxSinglePinRefetch ?? 50;
  const watches = new WatchRegistry(options.watch);
  const commentPins = new Map<number, number>();
  const cards = createVisibilityWatcher(
    (id) => watches.add([id]),
    (id) => watches.remove([id]),
  );

  let started = false;
  let unsubscribe: Array<() => void> = [];
  let socket: LiveSocket | null = null;
  /** The user the open socket belongs to (null: anonymous; undefined: no socket for anyone yet). */
  let socketUser: number | null | undefined;
  /** Bumped whenever a socket is opened or closed; late callbacks of older sockets are ignored. */
  let generation = 0;
  let everConnected = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = firstRetryMs;
  let resyncing: { token: object; buffer: Array<[string, unknown]>; done: Promise<void> } | null = null;
  /** Events received while screen loads are in flight, one buffer per load. */
  const loadBuffers = new Set<Array<[string, unknown]>>();

  const applier = createEventApplier(store, {
    // Another tab (or the server) ended this session: this tab is signed out and goes on as anonymous.
    onSessionEnded: () => clearSession(store),
  });

  const currentUser = () => store.get(sessionUserAtom)?.id ?? null;

  function closeSocket(): void {
    generation += 1;
    clearTimeout(retryTimer);
    watches.disconnected();
    if (socket) {
      socket.removeAllListeners();
      socket.offAny();
      socket.disconnect();
      socket = null;
    }
  }

  function scheduleRetry(run: () => void): void {
    clearTimeout(retryTimer);
    const gen = generation;
    retryTimer = setTimeout(() => {
      if (gen === generation && started) run();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30_000);
  }

  /** Follows the session: a socket once it was checked, and a new one whenever the user changes. */
  function sync(): void {
    if (!started || !store.get(sessionCheckedAtom)) return;
    const uid = currentUser();
    if (socketUser !== undefined && uid === socketUser) return;
    open(uid, false);
  }

  function open(uid: number | null, resyncOnConnect: boolean): void {
    closeSocket();
    socketUser = uid;
    const gen = generation;
    if (!everConnected) store.set(liveStatusAtom, 'connecting');
    Promise.resolve()
      .then(() => options.openSocket())
      .then(
        (opened) => {
          if (gen !== generation || !started) {
            opened.disconnect();
            return;
          }
          attach(opened, gen, resyncOnConnect);
        },
        (error: unknown) => {
          if (gen !== generation) return;
          console.warn('Live updates: could not open a socket', error);
          if (everConnected) store.set(liveStatusAtom, 'paused');
          scheduleRetry(() => open(uid, everConnected));
        },
      );
  }

  function emitWatch(target: LiveSocket, kind: WatchKind, pinIds: number[]): Promise<WatchAck> {
    return new Promise((resolve) => {
      let answered = false;
      const timer = setTimeout(() => {
        answered = true;
        resolve({ ok: false, error: 'No answer from the server.' });
      }, ackTimeoutMs);
      target.emit(kind, { pinIds }, (answer: WatchAck) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        resolve(answer && typeof answer === 'object' ? answer : { ok: false, error: 'Unexpected answer.' });
      });
    });
  }

  function attach(opened: LiveSocket, gen: number, resyncOnConnect: boolean): void {
    socket = opened;
    let connectedBefore = false;
    opened.on('connect', () => {
      if (gen !== generation) return;
      const reconnect = connectedBefore || resyncOnConnect;
      connectedBefore = true;
      everConnected = true;
      retryDelay = firstRetryMs;
      store.set(liveStatusAtom, 'connected');
      const watched = watches.connected((kind, ids) => emitWatch(opened, kind, ids));
      // Refetch once the pins are watched again, so nothing falls between the fetch and the events.
      if (reconnect) void watched.then(() => resync(gen));
    });
    opened.on('disconnect', (reason) => {
      if (gen !== generation) return;
      watches.disconnected();
      if (everConnected) store.set(liveStatusAtom, 'paused');
      // The server closed this socket (session gone, or the instance shutting down): socket.io
      // does not reconnect by itself then. Ask who we are now, and go on from there.
      if (reason === 'io server disconnect') void recheckSession(gen);
    });
    opened.on('connect_error', (error) => {
      if (gen !== generation) return;
      if (everConnected) store.set(liveStatusAtom, 'paused');
      // socket.io retries transport failures itself; a refused handshake it does not.
      if (!opened.active) {
        console.warn('Live updates: connection refused', error.message);
        scheduleRetry(() => open(socketUser ?? null, everConnected));
      }
    });
    opened.onAny((event, payload) => {
      if (gen !== generation) return;
      resyncing?.buffer.push([event, payload]);
      for (const buffer of loadBuffers) buffer.push([event, payload]);
      applier.apply(event, payload);
    });
  }

  async function recheckSession(gen: number): Promise<void> {
    let user;
    try {
      user = await fetchSession();
    } catch {
      if (gen === generation) scheduleRetry(() => void recheckSession(gen));
      return;
    }
    if (gen !== generation || !started) return;
    const uid = user?.id ?? null;
    if (uid === socketUser) open(uid, true);
    else if (user) setSessionUser(store, user); // sync() opens the new user's socket
    else clearSession(store);
  }

  /** After a reconnect: fetch again what the screens show, then replay what arrived meanwhile. */
  function resync(gen: number): Promise<void> {
    if (gen !== generation) return Promise.resolve();
    const token = {};
    const buffer: Array<[string, unknown]> = [];
    const done = run();
    resyncing = { token, buffer, done };
    return done;

    async function run(): Promise<void> {
      const uid = currentUser();
      const watched = watches.watched();
      const knownPins = store.get(pinsByIdAtom);
      const pinsLoaded = store.get(pinsLoadedAtom);
      const singles = pinsLoaded ? [] : watched.filter((id) => knownPins[id]).slice(0, maxSinglePinRefetch);
      const boardsShown = store.get(boardsLoadedAtom) || Object.keys(store.get(boardsByIdAtom)).length > 0;
      const [pins, single, favorites, boards, comments] = await Promise.all([
        settle<Pin[]>(pinsLoaded ? fetchPins() : null),
        Promise.all(
          singles.map((id) =>
            settle<Pin | null>(
              fetchPin(id).catch((error: unknown) => {
                if (isApiError(error) && error.status === 404) return null;
                throw error;
              }),
            ).then((result) => [id, result] as const),
          ),
        ),
        settle<Favorite[]>(uid !== null && store.get(favoritesLoadedAtom) ? fetchFavorites() : null),
        settle<Board[]>(uid !== null && boardsShown ? fetchBoards() : null),
        Promise.all([...commentPins.keys()].map((id) => settle<Comment[]>(fetchComments(id)).then((result) => [id, result] as const))),
      ]);
      const current = resyncing?.token === token;
      if (current) resyncing = null;
      if (!current || gen !== generation || currentUser() !== uid) return;

      const failed = (what: string, result: Settled<unknown>) => {
        if (result?.status === 'rejected') console.warn(`Live updates: could not refresh ${what}`, result.reason);
        return result?.status !== 'fulfilled';
      };
      if (pins && !failed('pins', pins) && pins.status === 'fulfilled') {
        // Known before the fetch began and missing from its answer: deleted while we were away
        // (a pin created during the fetch may be in the store already, and is not in `knownPins`).
        const before = Object.keys(knownPins).map(Number);
        const list = pins.value.filter((pin) => !isPinDeleted(store, pin.id));
        const now = new Set(list.map((pin) => pin.id));
        setAllPins(store, list);
        for (const id of before) if (!now.has(id)) dropDeletedPin(store, id);
      }
      for (const [id, result] of single) {
        if (failed(`pin ${id}`, result) || result?.status !== 'fulfilled') continue;
        if (result.value) upsertPin(store, result.value);
        else dropDeletedPin(store, id);
      }
      if (favorites && !failed('favorites', favorites) && favorites.status === 'fulfilled') {
        setAllFavorites(store, favorites.value.filter((fav) => !isPinDeleted(store, fav.pin_id)));
      }
      if (boards && !failed('boards', boards) && boards.status === 'fulfilled') {
        setAllBoards(store, boards.value.map((b) => ({ ...b, pins: b.pins.filter((p) => !isPinDeleted(store, p.id)) })));
      }
      for (const [id, result] of comments) {
        if (failed(`comments of pin ${id}`, result) || result?.status !== 'fulfilled') continue;
        if (!isPinDeleted(store, id)) setPinComments(store, id, result.value);
      }
      // Events that arrived while fetching may be newer than the answers: apply them again
      // (every handler is idempotent).
      for (const [event, payload] of buffer) applier.apply(event, payload);
    }
  }

  const client: LiveClient = {
    store,
    watches,
    start() {
      if (started) return;
      started = true;
      clients.set(store, client);
      unsubscribe = [store.sub(sessionCheckedAtom, sync), store.sub(sessionUserAtom, sync)];
      sync();
    },
    stop() {
      if (!started) return;
      started = false;
      unsubscribe.forEach((off) => off());
      unsubscribe = [];
      closeSocket();
      socketUser = undefined;
      if (clients.get(store) === client) clients.delete(store);
      store.set(liveStatusAtom, 'idle');
    },
    watchPins(pinIds) {
      const ids = [...pinIds];
      watches.add(ids);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        watches.remove(ids);
      };
    },
    watchComments(pinId) {
      commentPins.set(pinId, (commentPins.get(pinId) ?? 0) + 1);
      const release = client.watchPins([pinId]);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
        const n = commentPins.get(pinId) ?? 0;
        if (n <= 1) commentPins.delete(pinId);
        else commentPins.set(pinId, n - 1);
      };
    },
    observeCard(element, pinId) {
      return cards.observe(element, pinId);
    },
    prepareForLogout() {
      if (!started) return;
      closeSocket();
      socketUser = undefined; // the session change that follows opens the next socket
      if (everConnected) store.set(liveStatusAtom, 'connecting');
      // Should the logout never change the session (it always does), reconnect anyway.
      const gen = generation;
      retryTimer = setTimeout(() => {
        if (gen === generation) sync();
      }, 5_000);
    },
    settled() {
      return resyncing?.done ?? Promise.resolve();
    },
    async replayDuring(load) {
      const buffer: Array<[string, unknown]> = [];
      loadBuffers.add(buffer);
      try {
        const result = await load();
        for (const [event, payload] of buffer) applier.apply(event, payload);
        return result;
      } finally {
        loadBuffers.delete(buffer);
      }
    },
  };
  return client;
}
