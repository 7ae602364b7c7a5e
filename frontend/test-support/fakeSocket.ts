// A stand-in for a socket.io-client Socket in the live client tests: the test plays the server
// (connect, disconnect, events) and sees every watch message with its ack. `startFakeLiveClient`
// starts a live client whose sockets are such fakes, and stops it after the test.
import { createStore } from 'jotai';
import { afterEach } from 'vitest';
import type { ServerEventName, ServerEventPayload, WatchAck } from '../../contract/events.ts';
import type { PresenceEvent, PresenceTarget } from '../../contract/presence.ts';
import type { User } from '../../contract/index.ts';
import { createLiveClient, type LiveClient, type LiveClientOptions } from '../live/client.ts';
import type { LiveSocket } from '../live/connection.ts';
import type { WatchKind } from '../live/watch.ts';
import { clearSession, setSessionUser } from '../state/session.ts';
import type { Store } from '../state/store.ts';

type Listener = (...args: unknown[]) => void;

export class FakeSocket implements LiveSocket {
  active = true;
  closed = false;
  /** How watch messages are answered (null: never). */
  answer: ((kind: WatchKind, pinIds: number[]) => WatchAck) | null = () => ({ ok: true });
  readonly emitted: Array<{ kind: WatchKind; pinIds: number[] }> = [];
  /** Presence messages, each answered `{ok: true}`. */
  readonly presence: Array<{ event: PresenceEvent; target: PresenceTarget }> = [];
  readonly #listeners = new Map<string, Listener[]>();
  #any: Listener[] = [];

  on(event: string, listener: (...args: never[]) => void): this {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener as Listener]);
    return this;
  }

  onAny(listener: (event: string, ...args: unknown[]) => void): this {
    this.#any.push(listener as Listener);
    return this;
  }

  emit(kind: WatchKind | PresenceEvent, payload: { pinIds: number[] } | PresenceTarget, ack: (answer: WatchAck) => void): this {
    if (kind === 'presence:join' || kind === 'presence:leave') {
      this.presence.push({ event: kind, target: { ...(payload as PresenceTarget) } });
      queueMicrotask(() => ack({ ok: true }));
      return this;
    }
    if (!('pinIds' in payload)) return this;
    this.emitted.push({ kind, pinIds: [...payload.pinIds] });
    const answer = this.answer;
    if (answer) queueMicrotask(() => ack(answer(kind, payload.pinIds)));
    return this;
  }

  removeAllListeners(): this {
    this.#listeners.clear();
    return this;
  }

  offAny(): this {
    this.#any = [];
    return this;
  }

  disconnect(): this {
    this.closed = true;
    this.active = false;
    return this;
  }

  // ---- the test plays the server ----
  #fire(event: string, ...args: unknown[]): void {
    for (const listener of this.#listeners.get(event) ?? []) listener(...args);
  }

  serverConnect(): void {
    this.#fire('connect');
  }

  serverDisconnect(reason: string): void {
    if (reason === 'io server disconnect') this.active = false;
    this.#fire('disconnect', reason);
  }

  serverRefuse(message = 'refused'): void {
    this.active = false;
    this.#fire('connect_error', new Error(message));
  }

  /** A server event; a change's `seq` may be left out (the live client then applies it unnumbered). */
  serverEmit<E extends ServerEventName>(event: E, payload: Omit<ServerEventPayload<E>, 'seq'> & { seq?: number }): void {
    for (const listener of this.#any) listener(event, payload);
  }

  watchedIds(): number[] {
    const held = new Set<number>();
    for (const { kind, pinIds } of this.emitted) {
      for (const id of pinIds) {
        if (kind === 'pins:watch') held.add(id);
        else held.delete(id);
      }
    }
    return [...held].sort((a, b) => a - b);
  }
}

const started: LiveClient[] = [];
afterEach(() => {
  for (const client of started.splice(0)) client.stop();
});

/** A started live client on `store` whose sockets are fakes; `sockets` lists every one it opened. */
export function startFakeLiveClient(store: Store, options: Partial<LiveClientOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const client = createLiveClient(store, {
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    watch: { debounceMs: 10 },
    ...options,
  });
  client.start();
  started.push(client);
  const last = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket opened');
    return socket;
  };
  return { client, sockets, last };
}

/** A fresh store fed by a fake live client; `checkSession()` ends the initial session check as `user`. */
export function setupLive(user: User | null = null) {
  const store = createStore();
  const live = startFakeLiveClient(store, { retryMs: 20 });
  const checkSession = () => (user ? setSessionUser(store, user) : clearSession(store));
  return { store, checkSession, ...live };
}
