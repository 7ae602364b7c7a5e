// The one owner of the socket (docs/realtime.md). A tab has one socket, opened once the initial session
// check is done and opened anew whenever the signed-in user changes (login, logout,
// session:ended), so it always carries the current session cookie. This module keeps it up —
// socket.io reconnects by itself after a transport failure; a refused handshake, a socket that
// could not be opened and a socket the server closed are retried here, with backoff — and shows
// its state in liveStatusAtom. What the socket is used for is the handlers' business: they hear
// when it connects, when it drops and every event it brings.
import type { WatchAck } from '../../contract/events.ts';
import type { PresenceEvent, PresenceTarget } from '../../contract/presence.ts';
import { liveStatusAtom, sessionCheckedAtom, sessionUserAtom } from '../state/atoms.ts';
import { siteAtom } from '../state/site.ts';
import type { Store } from '../state/store.ts';
import { recheckSession } from './session-check.ts';
import type { SendPresence } from './presence.ts';
import type { SendWatch, WatchKind } from './watch.ts';

/** The part of a socket.io-client Socket the live client uses. */
export interface LiveSocket {
  readonly active: boolean;
  on(event: 'connect', listener: () => void): unknown;
  on(event: 'disconnect', listener: (reason: string) => void): unknown;
  on(event: 'connect_error', listener: (error: Error) => void): unknown;
  onAny(listener: (event: string, ...args: unknown[]) => void): unknown;
  emit(event: WatchKind, payload: { pinIds: number[] }, ack: (answer: WatchAck) => void): unknown;
  emit(event: PresenceEvent, payload: PresenceTarget, ack: (answer: WatchAck) => void): unknown;
  removeAllListeners(): unknown;
  offAny(): unknown;
  disconnect(): unknown;
}

export interface ConnectionOptions {
  /** socket.io-client in ./socket.ts, a fake in tests. */
  openSocket: () => LiveSocket | Promise<LiveSocket>;
  /** First delay before opening a socket again when one could not be opened (doubles, up to 30 s). */
  retryMs?: number;
}

interface ConnectionHandlers {
  /**
   * A socket connected. `reconnect`: events may have been missed since the last one; `isCurrent()`
   * turns false once this socket is closed or replaced.
   */
  connected(send: SendWatch, reconnect: boolean, isCurrent: () => boolean, sendPresence: SendPresence): void;
  /** The socket dropped or was closed: the server forgot what it watched. */
  disconnected(): void;
  event(name: string, payload: unknown): void;
}

/** A watch message without an answer after this long counts as failed. */
const ACK_TIMEOUT_MS = 10_000;
const MAX_RETRY_MS = 30_000;
/** Should a logout never change the session (it always does), a socket is opened anyway after this. */
const LOGOUT_FALLBACK_MS = 5_000;

/** Sends a watch message; no answer within ACK_TIMEOUT_MS counts as an error ack. */
function sendWatch(socket: LiveSocket, kind: WatchKind, pinIds: number[]): Promise<WatchAck> {
  return acked((ack) => socket.emit(kind, { pinIds }, ack));
}

/** Sends a presence message, answered as a watch message is. */
function sendPresence(socket: LiveSocket, event: PresenceEvent, target: PresenceTarget): Promise<WatchAck> {
  return acked((ack) => socket.emit(event, target, ack));
}

function acked(emit: (ack: (answer: WatchAck) => void) => void): Promise<WatchAck> {
  return new Promise((resolve) => {
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      resolve({ ok: false, error: 'No answer from the server.' });
    }, ACK_TIMEOUT_MS);
    emit((answer: WatchAck) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      resolve(answer && typeof answer === 'object' ? answer : { ok: false, error: 'Unexpected answer.' });
    });
  });
}

export class LiveConnection {
  readonly #store: Store;
  readonly #openSocket: ConnectionOptions['openSocket'];
  readonly #handlers: ConnectionHandlers;
  readonly #firstRetryMs: number;
  #retryDelay: number;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The session subscriptions while started (null: stopped). */
  #following: Array<() => void> | null = null;
  #socket: LiveSocket | null = null;
  /** The user the socket belongs to (null: anonymous; undefined: no socket for anyone yet). */
  #socketUser: number | null | undefined;
  /** Bumped whenever a socket is opened or closed; late callbacks of older sockets are ignored. */
  #generation = 0;
  /** Once a socket has worked, a drop shows as `paused`; before, the status stays `connecting`. */
  #everConnected = false;

  constructor(store: Store, options: ConnectionOptions, handlers: ConnectionHandlers) {
    this.#store = store;
    this.#openSocket = options.openSocket;
    this.#handlers = handlers;
    this.#firstRetryMs = options.retryMs ?? 1_000;
    this.#retryDelay = this.#firstRetryMs;
  }

  /** Follows the session from now on: a socket once it was checked, a new one whenever the user changes. */
  start(): void {
    if (this.#following) return;
    const follow = () => this.#follow();
    this.#following = [this.#store.sub(sessionCheckedAtom, follow), this.#store.sub(sessionUserAtom, follow)];
    this.#follow();
  }

  stop(): void {
    if (!this.#following) return;
    this.#following.forEach((off) => off());
    this.#following = null;
    this.#close();
    this.#socketUser = undefined;
    this.#store.set(liveStatusAtom, 'idle');
  }

  /** This tab is logging out: close the socket now (its session:ended is expected, not news). */
  prepareForLogout(): void {
    if (!this.#following) return;
    this.#close();
    this.#socketUser = undefined; // the session change that follows opens the next socket
    if (this.#everConnected) this.#store.set(liveStatusAtom, 'connecting');
    const gen = this.#generation;
    this.#retryTimer = setTimeout(() => {
      if (gen === this.#generation) this.#follow();
    }, LOGOUT_FALLBACK_MS);
  }

  #follow(): void {
    if (!this.#following || !this.#store.get(sessionCheckedAtom)) return;
    const uid = this.#store.get(sessionUserAtom)?.id ?? null;
    if (this.#socketUser !== undefined && uid === this.#socketUser) return;
    // A members-only site refuses a visitor's socket (docs/site-access.md): none is opened for one.
    if (uid === null && this.#store.get(siteAtom).visibility === 'members') {
      this.#close();
      this.#socketUser = undefined;
      this.#store.set(liveStatusAtom, 'idle');
      return;
    }
    this.#open(uid, false);
  }

  #isCurrent(gen: number): boolean {
    return gen === this.#generation && this.#following !== null;
  }

  #pause(): void {
    if (this.#everConnected) this.#store.set(liveStatusAtom, 'paused');
  }

  #close(): void {
    this.#generation += 1;
    clearTimeout(this.#retryTimer);
    this.#handlers.disconnected();
    if (this.#socket) {
      this.#socket.removeAllListeners();
      this.#socket.offAny();
      this.#socket.disconnect();
      this.#socket = null;
    }
  }

  #retryLater(run: () => void): void {
    clearTimeout(this.#retryTimer);
    const gen = this.#generation;
    this.#retryTimer = setTimeout(() => {
      if (this.#isCurrent(gen)) run();
    }, this.#retryDelay);
    this.#retryDelay = Math.min(this.#retryDelay * 2, MAX_RETRY_MS);
  }

  /** Opens a socket for `uid`; `resyncOnConnect`: its first connect counts as a reconnect. */
  #open(uid: number | null, resyncOnConnect: boolean): void {
    this.#close();
    this.#socketUser = uid;
    const gen = this.#generation;
    if (!this.#everConnected) this.#store.set(liveStatusAtom, 'connecting');
    Promise.resolve()
      .then(() => this.#openSocket())
      .then(
        (opened) => {
          if (!this.#isCurrent(gen)) {
            opened.disconnect();
            return;
          }
          this.#attach(opened, gen, resyncOnConnect);
        },
        (error: unknown) => {
          if (gen !== this.#generation) return;
          console.warn('Live updates: could not open a socket', error);
          this.#pause();
          this.#retryLater(() => this.#open(uid, this.#everConnected));
        },
      );
  }

  #attach(socket: LiveSocket, gen: number, resyncOnConnect: boolean): void {
    this.#socket = socket;
    let connectedBefore = false;
    socket.on('connect', () => {
      if (gen !== this.#generation) return;
      const reconnect = connectedBefore || resyncOnConnect;
      connectedBefore = true;
      this.#everConnected = true;
      this.#retryDelay = this.#firstRetryMs;
      this.#store.set(liveStatusAtom, 'connected');
      this.#handlers.connected(
        (kind, ids) => sendWatch(socket, kind, ids),
        reconnect,
        () => gen === this.#generation,
        (event, target) => sendPresence(socket, event, target),
      );
    });
    socket.on('disconnect', (reason) => {
      if (gen !== this.#generation) return;
      this.#handlers.disconnected();
      this.#pause();
      // The server closed this socket (session gone, or the instance shutting down): socket.io
      // does not reconnect by itself then.
      if (reason === 'io server disconnect') void this.#afterServerClose(gen);
    });
    socket.on('connect_error', (error) => {
      if (gen !== this.#generation) return;
      this.#pause();
      // socket.io retries transport failures itself; a refused handshake it does not.
      if (!socket.active) {
        console.warn('Live updates: connection refused', error.message);
        this.#retryLater(() => this.#open(this.#socketUser ?? null, this.#everConnected));
      }
    });
    socket.onAny((event, payload) => {
      if (gen === this.#generation) this.#handlers.event(event, payload);
    });
  }

  async #afterServerClose(gen: number): Promise<void> {
    const uid = this.#socketUser ?? null;
    const outcome = await recheckSession(this.#store, uid, () => this.#isCurrent(gen));
    if (outcome === 'unreachable' && gen === this.#generation) this.#retryLater(() => void this.#afterServerClose(gen));
    // Still the same user: the same socket again, and what was missed is fetched again.
    else if (outcome === 'unchanged') this.#open(uid, true);
  }
}
