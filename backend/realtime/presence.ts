import type { WatchAck } from '../../contract/events.ts';
import { PRESENCE_LIMITS, PRESENCE_MESSAGES, PresencePayload, type PresentUser } from '../../contract/presence.ts';
import type { IO, PinboardSocket } from './gateway.ts';
import type { PresenceEntry, PresenceKey, PresenceState, PresenceStore } from './presence-store.ts';
import { pinRoom } from './rooms.ts';

// Presence over sockets (DESIGN §12): `presence:join` / `presence:leave` and disconnects update
// the store (./presence-store.ts), and the new state is emitted to the pin's or board's room at
// most once per `emitIntervalMs` per target and instance. This instance refreshes its own sockets'
// entries every `heartbeatMs` (one script call per few hundred sockets, not one per socket), which also notices
// entries that expired (an instance that crashed) and emits the lower count.
//
// Never a cluster-wide socket scan: the count is in the store. A store failure (Redis down) is
// logged and otherwise ignored: joins are still acked and remembered here, and the next heartbeat
// after Redis is back writes them again.

export interface PresenceOptions {
  store: PresenceStore;
  /** How often this instance refreshes its entries: well under the store's TTL. */
  heartbeatMs: number;
  /** Least time between two emits for one pin or board (per instance). */
  emitIntervalMs?: number;
  isBoardMember(boardId: number, userId: number): Promise<boolean>;
  usernames(ids: readonly number[]): Promise<PresentUser[]>;
  onError(error: unknown, context: string): void;
}

/** The room of a pin's or board's presence subscribers (joined with `presence:join`). */
export const presenceRoom = (key: PresenceKey) => `presence:${key.kind}:${key.id}`;
const targetName = (key: PresenceKey) => `${key.kind}:${key.id}`;

interface Target {
  key: PresenceKey;
  /** This instance's present sockets. */
  entries: Map<string, PresenceEntry>;
  /** What was last emitted (or sent) for it, to tell whether a heartbeat found a change. */
  lastState: string | undefined;
}

interface Cooldown {
  timer: ReturnType<typeof setTimeout>;
  /** Something changed since the last emit: emit again when the cooldown ends. */
  dirty: boolean;
}

const signature = (state: PresenceState) => `${state.count}|${state.userIds.join(',')}`;

export class PresenceService {
  readonly #io: IO;
  readonly #options: PresenceOptions;
  readonly #emitIntervalMs: number;
  /** Socket id → the targets it is present on. */
  readonly #bySocket = new Map<string, Map<string, PresenceKey>>();
  /** Targets with at least one present socket on this instance. */
  readonly #targets = new Map<string, Target>();
  readonly #cooldowns = new Map<string, Cooldown>();
  /** Per socket, its presence operations one after the other: a leave never overtakes its join. */
  readonly #queues = new Map<string, Promise<void>>();
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #beating = false;
  #closed = false;
  /** Store failures are logged at most once per heartbeat interval (Redis down: one line, not thousands). */
  #lastErrorLog = 0;
  #suppressedErrors = 0;

  constructor(io: IO, options: PresenceOptions) {
    this.#io = io;
    this.#options = options;
    this.#emitIntervalMs = options.emitIntervalMs ?? 1000;
    this.#heartbeat = setInterval(() => void this.#beat(), options.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** Serves one socket's presence messages; its disconnect leaves everything. */
  attach(socket: PinboardSocket): void {
    socket.on('presence:join', (payload, ack) => void this.#onMessage(socket, 'join', payload, ack));
    socket.on('presence:leave', (payload, ack) => void this.#onMessage(socket, 'leave', payload, ack));
    socket.on('disconnect', () => {
      this.#enqueue(socket.id, () => this.#leaveAll(socket));
    });
  }

  /** Stops the heartbeat and waits (bounded by the caller) for pending operations. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const cooldown of this.#cooldowns.values()) clearTimeout(cooldown.timer);
    this.#cooldowns.clear();
    await Promise.all([...this.#queues.values()]);
  }

  /** Pins and boards present on this instance, and sockets present (the benchmark and tests read these). */
  stats(): { targets: number; sockets: number } {
    return { targets: this.#targets.size, sockets: this.#bySocket.size };
  }

  #enqueue(socketId: string, run: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(socketId) ?? Promise.resolve();
    const next = previous.then(run).catch((error: unknown) => this.#logError(error, 'presence'));
    this.#queues.set(socketId, next);
    void next.then(() => {
      if (this.#queues.get(socketId) === next) this.#queues.delete(socketId);
    });
    return next;
  }

  #onMessage(socket: PinboardSocket, kind: 'join' | 'leave', payload: unknown, ack: unknown): Promise<void> {
    const reply = (answer: WatchAck) => {
      if (typeof ack === 'function') (ack as (answer: WatchAck) => void)(answer);
    };
    const parsed = PresencePayload.safeParse(payload);
    if (!parsed.success) {
      reply({ ok: false, error: PRESENCE_MESSAGES.invalid });
      return Promise.resolve();
    }
    const key: PresenceKey = 'pinId' in parsed.data ? { kind: 'pin', id: parsed.data.pinId } : { kind: 'board', id: parsed.data.boardId };
    return this.#enqueue(socket.id, async () => {
      try {
        reply(kind === 'join' ? await this.#join(socket, key) : await this.#leave(socket, key));
      } catch (error) {
        this.#logError(error, `presence:${kind}`);
        reply({ ok: false, error: 'Something went wrong.' });
      }
    });
  }

  async #join(socket: PinboardSocket, key: PresenceKey): Promise<WatchAck> {
    const name = targetName(key);
    const held = this.#bySocket.get(socket.id);
    if (held?.has(name)) {
      // Already present: answer as a first join would, with the state as it is now.
      await this.#sendState(socket, key, () => this.#options.store.read(key));
      return { ok: true };
    }
    if ((held?.size ?? 0) >= PRESENCE_LIMITS.targetsPerSocket) return { ok: false, error: PRESENCE_MESSAGES.tooMany };
    const { userId } = socket.data;
    if (key.kind === 'board') {
      // Anonymous sockets and non-members learn nothing about the board, not even that it exists.
      if (userId === undefined || !(await this.#options.isBoardMember(key.id, userId))) return { ok: false, error: PRESENCE_MESSAGES.boardNotFound };
    }
    // Gone while the membership was checked: nothing may be recorded for it any more.
    if (!socket.connected || this.#closed) return { ok: true };
    const entry: PresenceEntry = { socketId: socket.id, userId };
    this.#remember(socket.id, key, entry);
    await socket.join(presenceRoom(key));
    await this.#sendState(socket, key, () => this.#options.store.join(key, entry), true);
    return { ok: true };
  }

  async #leave(socket: PinboardSocket, key: PresenceKey): Promise<WatchAck> {
    const name = targetName(key);
    if (!this.#bySocket.get(socket.id)?.has(name)) return { ok: true }; // not present: nothing to do
    this.#forget(socket.id, name);
    await socket.leave(presenceRoom(key));
    await this.#storeLeave(key, { socketId: socket.id, userId: socket.data.userId });
    return { ok: true };
  }

  async #leaveAll(socket: PinboardSocket): Promise<void> {
    const held = this.#bySocket.get(socket.id);
    if (!held) return;
    this.#bySocket.delete(socket.id);
    const entry: PresenceEntry = { socketId: socket.id, userId: socket.data.userId };
    await Promise.all(
      [...held].map(([name, key]) => {
        this.#forgetTarget(name, socket.id);
        return this.#storeLeave(key, entry);
      }),
    );
  }

  async #storeLeave(key: PresenceKey, entry: PresenceEntry): Promise<void> {
    try {
      this.#changed(key, await this.#options.store.leave(key, entry));
    } catch (error) {
      // The entry expires by itself within the TTL (this instance no longer refreshes it).
      this.#logError(error, 'presence leave');
    }
  }

  /**
   * Runs a store operation and sends its state to the joining socket at once. `changed`: others
   * are told too (coalesced). A store failure leaves the socket without a count until the next change.
   */
  async #sendState(socket: PinboardSocket, key: PresenceKey, operation: () => Promise<PresenceState>, changed = false): Promise<void> {
    let state: PresenceState;
    try {
      state = await operation();
    } catch (error) {
      this.#logError(error, 'presence join');
      return;
    }
    if (key.kind === 'pin') socket.emit('presence', { pinId: key.id, viewers: state.count });
    else socket.emit('board:presence', { boardId: key.id, users: await this.#users(state) });
    if (changed) this.#changed(key, state);
  }

  #remember(socketId: string, key: PresenceKey, entry: PresenceEntry): void {
    const name = targetName(key);
    let held = this.#bySocket.get(socketId);
    if (!held) this.#bySocket.set(socketId, (held = new Map()));
    held.set(name, key);
    let target = this.#targets.get(name);
    if (!target) this.#targets.set(name, (target = { key, entries: new Map(), lastState: undefined }));
    target.entries.set(socketId, entry);
  }

  #forget(socketId: string, name: string): void {
    const held = this.#bySocket.get(socketId);
    held?.delete(name);
    if (held?.size === 0) this.#bySocket.delete(socketId);
    this.#forgetTarget(name, socketId);
  }

  #forgetTarget(name: string, socketId: string): void {
    const target = this.#targets.get(name);
    target?.entries.delete(socketId);
    if (target?.entries.size === 0) this.#targets.delete(name);
  }

  /**
   * A target's state changed: emit it now unless one was emitted within the interval; then
   * changes during the interval are emitted (read afresh) once it ends.
   */
  #changed(key: PresenceKey, state: PresenceState): void {
    const name = targetName(key);
    const cooldown = this.#cooldowns.get(name);
    if (cooldown) {
      cooldown.dirty = true;
      return;
    }
    this.#startCooldown(name, key);
    void this.#broadcast(key, state);
  }

  #startCooldown(name: string, key: PresenceKey): void {
    if (this.#closed) return;
    const cooldown: Cooldown = {
      dirty: false,
      timer: setTimeout(() => {
        this.#cooldowns.delete(name);
        if (!cooldown.dirty) return;
        this.#startCooldown(name, key);
        this.#options.store.read(key).then(
          (state) => this.#broadcast(key, state),
          (error: unknown) => this.#logError(error, 'presence read'),
        );
      }, this.#emitIntervalMs),
    };
    cooldown.timer.unref();
    this.#cooldowns.set(name, cooldown);
  }

  async #broadcast(key: PresenceKey, state: PresenceState): Promise<void> {
    const target = this.#targets.get(targetName(key));
    if (target) target.lastState = signature(state);
    try {
      // A pin's count goes to its watchers too (room pin:<id>); one emit to both rooms reaches a
      // socket in both once.
      if (key.kind === 'pin') this.#io.to([pinRoom(key.id), presenceRoom(key)]).emit('presence', { pinId: key.id, viewers: state.count });
      else this.#io.to(presenceRoom(key)).emit('board:presence', { boardId: key.id, users: await this.#users(state) });
    } catch (error) {
      this.#logError(error, 'presence emit');
    }
  }

  #users(state: PresenceState): Promise<PresentUser[]> {
    return this.#options.usernames(state.userIds);
  }

  /** Refreshes this instance's entries, one store call per target; a changed state is emitted. */
  async #beat(): Promise<void> {
    if (this.#beating || this.#closed) return;
    this.#beating = true;
    try {
      const targets = [...this.#targets.values()];
      let states: PresenceState[];
      try {
        states = await this.#options.store.refresh(targets.map((target) => ({ key: target.key, entries: [...target.entries.values()] })));
      } catch (error) {
        this.#logError(error, 'presence heartbeat');
        return;
      }
      targets.forEach((target, i) => {
        const state = states[i];
        if (state && signature(state) !== target.lastState) this.#changed(target.key, state);
      });
    } finally {
      this.#beating = false;
    }
  }

  #logError(error: unknown, context: string): void {
    const now = Date.now();
    if (now - this.#lastErrorLog < this.#options.heartbeatMs) {
      this.#suppressedErrors += 1;
      return;
    }
    this.#lastErrorLog = now;
    const suppressed = this.#suppressedErrors;
    this.#suppressedErrors = 0;
    this.#options.onError(error, suppressed ? `${context} (and ${suppressed} more failures)` : context);
  }
}
