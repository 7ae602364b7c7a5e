import type { WatchAck } from '../../contract/events.ts';
import { PresencePayload } from '../../contract/presence-schema.ts';
import { PRESENCE_LIMITS, PRESENCE_MESSAGES, type PresentUser } from '../../contract/presence.ts';
import type { IO, PinboardSocket } from './gateway.ts';
import { PresenceEmitter, presenceRoom } from './presence-emitter.ts';
import { PresenceHoldings } from './presence-holdings.ts';
import type { PresenceEntry, PresenceKey, PresenceState, PresenceStore } from './presence-store.ts';
import { userRoom } from './rooms.ts';

// Presence over sockets (docs/presence.md): `presence:join` / `presence:leave` and disconnects
// update the store (./presence-store.ts), and the new state is emitted (./presence-emitter.ts).
// This instance refreshes its own sockets' entries every `heartbeatMs` (one script call per few
// hundred sockets, not one per socket), which also notices entries that expired (an instance that
// crashed) and emits the lower count, and drops board entries whose user is no longer a member.
//
// Board presence follows membership: every join asks, a removal or a board's deletion makes the
// sockets concerned leave on every instance at once (`evict`), and the heartbeat asks again.
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
  /** Other instances share the adapter (Redis): evictions are told to them too. */
  peers: boolean;
  isBoardMember(boardId: number, userId: number): Promise<boolean>;
  /** False for a private pin the user (undefined: anonymous) may not see (docs/who-sees-what.md). */
  mayWatchPin(pinId: number, userId: number | undefined): Promise<boolean>;
  /** Of these (board, user) pairs, the ones that are still a member of the board (as `board:user`). */
  boardMemberships(pairs: ReadonlyArray<{ boardId: number; userId: number }>): Promise<Set<string>>;
  usernames(ids: readonly number[]): Promise<PresentUser[]>;
  onError(error: unknown, context: string): void;
}

export class PresenceService {
  readonly #io: IO;
  readonly #options: PresenceOptions;
  readonly #emitter: PresenceEmitter;
  readonly #holdings: PresenceHoldings;
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
    this.#holdings = new PresenceHoldings((key) => this.#emitter.forget(key));
    this.#emitter = new PresenceEmitter(io, {
      emitIntervalMs: options.emitIntervalMs ?? 1000,
      read: (key) => options.store.read(key),
      usernames: options.usernames,
      present: (key) => this.#holdings.target(key) !== undefined,
      onError: (error, context) => this.#logError(error, context),
    });
    this.#heartbeat = setInterval(() => void this.#beat(), options.heartbeatMs);
    this.#heartbeat.unref();
    io.sockets.on('presence:evict', this.#evictFromPeer);
  }

  /** Another instance evicted a member (or a deleted board's viewers): drop what this one holds. */
  readonly #evictFromPeer = (boardId: unknown, userId: unknown): void => {
    if (Number.isSafeInteger(boardId) && (userId === null || Number.isSafeInteger(userId))) this.#evictHere(boardId as number, userId as number | null);
  };

  /** Serves one socket's presence messages; its disconnect leaves everything. */
  attach(socket: PinboardSocket): void {
    socket.on('presence:join', (payload, ack) => void this.#onMessage(socket, 'join', payload, ack));
    socket.on('presence:leave', (payload, ack) => void this.#onMessage(socket, 'leave', payload, ack));
    socket.on('disconnect', () => {
      void this.#enqueue(socket.id, () => this.#leaveAll(socket));
    });
  }

  /**
   * `userId` is no longer a member of the board (or, without a user, the board is gone): their
   * sockets leave its presence room on every instance through the adapter, and every instance drops
   * the entries it holds for them, so the others see them go at once.
   */
  evict(boardId: number, userId?: number): void {
    const room = presenceRoom({ kind: 'board', id: boardId });
    this.#io.in(userId === undefined ? room : userRoom(userId)).socketsLeave(room);
    if (this.#options.peers) this.#io.serverSideEmit('presence:evict', boardId, userId ?? null);
    this.#evictHere(boardId, userId ?? null);
  }

  /** Stops the heartbeat and waits (bounded by the caller) for pending operations. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#io.sockets.off('presence:evict', this.#evictFromPeer);
    this.#emitter.close();
    await Promise.all([...this.#queues.values()]);
  }

  /** Pins and boards present on this instance, and sockets present (the benchmark and tests read these). */
  stats(): { targets: number; sockets: number } {
    return this.#holdings.stats();
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
    const present = this.#holdings.holds(socket.id, key);
    if (!present && this.#holdings.count(socket.id) >= PRESENCE_LIMITS.targetsPerSocket) return { ok: false, error: PRESENCE_MESSAGES.tooMany };
    const { userId } = socket.data;
    // Asked at every join, a repeated one too: a member removed since must not be answered `ok`.
    // Anonymous sockets and non-members learn nothing about the board, not even that it exists.
    if (key.kind === 'board' && (userId === undefined || !(await this.#options.isBoardMember(key.id, userId)))) {
      if (present) await this.#leave(socket, key);
      return { ok: false, error: PRESENCE_MESSAGES.boardNotFound };
    }
    // A private pin's viewers are only for those who may see it; to anyone else it does not exist.
    if (key.kind === 'pin' && !(await this.#options.mayWatchPin(key.id, userId))) {
      if (present) await this.#leave(socket, key);
      return { ok: false, error: PRESENCE_MESSAGES.pinNotFound };
    }
    if (present) {
      // Already present: answer as a first join would, with the state as it is now.
      await this.#sendState(socket, key, () => this.#options.store.read(key));
      return { ok: true };
    }
    // Gone while the membership was checked: nothing may be recorded for it any more.
    if (!socket.connected || this.#closed) return { ok: true };
    const entry: PresenceEntry = { socketId: socket.id, userId };
    this.#holdings.add(key, entry);
    await socket.join(presenceRoom(key));
    await this.#sendState(socket, key, () => this.#options.store.join(key, entry), true);
    return { ok: true };
  }

  async #leave(socket: PinboardSocket, key: PresenceKey): Promise<WatchAck> {
    if (!this.#holdings.holds(socket.id, key)) return { ok: true }; // not present: nothing to do
    this.#holdings.remove(socket.id, key);
    await socket.leave(presenceRoom(key));
    await this.#storeLeave(key, { socketId: socket.id, userId: socket.data.userId });
    return { ok: true };
  }

  async #leaveAll(socket: PinboardSocket): Promise<void> {
    const entry: PresenceEntry = { socketId: socket.id, userId: socket.data.userId };
    await Promise.all(this.#holdings.removeSocket(socket.id).map((key) => this.#storeLeave(key, entry)));
  }

  /**
   * This instance's sockets present on the board (of `userId`, or all) leave it, each in its own
   * queue after whatever it was doing (a join being checked completes first, then is undone).
   */
  #evictHere(boardId: number, userId: number | null): void {
    const key: PresenceKey = { kind: 'board', id: boardId };
    const namespace = this.#io.of('/');
    const socketIds = new Set(this.#holdings.target(key)?.entries.keys());
    // The user's every socket here, not only those already present: a join still being checked
    // is queued before this leave, so it is undone as soon as it is done.
    if (userId !== null) {
      for (const id of socketIds) if (namespace.sockets.get(id)?.data.userId !== userId) socketIds.delete(id);
      for (const id of namespace.adapter.rooms.get(userRoom(userId)) ?? []) socketIds.add(id);
    }
    for (const id of socketIds) {
      const socket = namespace.sockets.get(id);
      if (socket) void this.#enqueue(id, () => this.#leave(socket, key).then(() => undefined));
    }
  }

  async #storeLeave(key: PresenceKey, entry: PresenceEntry): Promise<void> {
    try {
      this.#emitter.changed(key, await this.#options.store.leave(key, entry));
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
    await this.#emitter.sendTo(socket, key, state);
    if (changed) this.#emitter.changed(key, state);
  }

  /**
   * Drops board entries whose user is no longer a member (a removal whose eviction was lost, a
   * board deleted meanwhile), then refreshes this instance's entries, one store call per few
   * hundred; a changed state is emitted.
   */
  async #beat(): Promise<void> {
    if (this.#beating || this.#closed) return;
    this.#beating = true;
    try {
      await this.#dropFormerMembers();
      const targets = this.#holdings.targets();
      let states: PresenceState[];
      try {
        states = await this.#options.store.refresh(targets.map((target) => ({ key: target.key, entries: [...target.entries.values()] })));
      } catch (error) {
        this.#logError(error, 'presence heartbeat');
        return;
      }
      targets.forEach((target, i) => {
        const state = states[i];
        if (state && this.#emitter.differs(target.key, state)) this.#emitter.changed(target.key, state);
      });
    } finally {
      this.#beating = false;
    }
  }

  async #dropFormerMembers(): Promise<void> {
    const present = this.#holdings.targets().filter((target) => target.key.kind === 'board');
    const pairs = present.flatMap((target) => [...target.entries.values()].flatMap((entry) => (entry.userId === undefined ? [] : [{ boardId: target.key.id, userId: entry.userId }])));
    if (pairs.length === 0) return;
    let members: Set<string>;
    try {
      members = await this.#options.boardMemberships(pairs);
    } catch (error) {
      this.#logError(error, 'presence membership check');
      return;
    }
    const leaving: Promise<void>[] = [];
    for (const target of present) {
      for (const entry of target.entries.values()) {
        const socket = this.#io.of('/').sockets.get(entry.socketId);
        const member = entry.userId !== undefined && members.has(`${target.key.id}:${entry.userId}`);
        if (!member && socket) leaving.push(this.#enqueue(socket.id, () => this.#leave(socket, target.key).then(() => undefined)));
      }
    }
    await Promise.all(leaving);
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
