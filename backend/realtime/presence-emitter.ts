import type { PresentUser } from '../../contract/presence.ts';
import type { IO, PinboardSocket } from './gateway.ts';
import type { PresenceKey, PresenceState } from './presence-store.ts';
import { pinRoom } from './rooms.ts';

/** The room of a pin's or board's presence subscribers (joined with `presence:join`). */
export const presenceRoom = (key: PresenceKey) => `presence:${key.kind}:${key.id}`;
export const targetName = (key: PresenceKey) => `${key.kind}:${key.id}`;

interface Cooldown {
  timer: ReturnType<typeof setTimeout>;
  /** Something changed since the last emit: emit again when the cooldown ends. */
  dirty: boolean;
}

const signature = (state: PresenceState) => `${state.count}|${state.userIds.join(',')}`;

export interface EmitterOptions {
  /** Least time between two emits for one pin or board (per instance). */
  emitIntervalMs: number;
  /** The state as it is now, read afresh when a cooldown ends with changes pending. */
  read(key: PresenceKey): Promise<PresenceState>;
  usernames(ids: readonly number[]): Promise<PresentUser[]>;
  /** Whether this instance has sockets present on the target (only theirs are compared at heartbeats). */
  present(key: PresenceKey): boolean;
  onError(error: unknown, context: string): void;
}

/**
 * Tells sockets a pin's or board's presence (./presence.ts decides when): a pin's count to its
 * presence room and its watchers, a board's present users to its presence room, at most once per
 * `emitIntervalMs` per target and instance (changes meanwhile are emitted, read afresh, when the
 * interval ends). Remembers what it last emitted per target, so a heartbeat can tell a change.
 */
export class PresenceEmitter {
  readonly #io: IO;
  readonly #options: EmitterOptions;
  readonly #cooldowns = new Map<string, Cooldown>();
  /** What was last emitted (or sent) per target still present on this instance. */
  readonly #lastState = new Map<string, string>();
  #closed = false;

  constructor(io: IO, options: EmitterOptions) {
    this.#io = io;
    this.#options = options;
  }

  /** The state to one socket (a join answers with it at once). */
  async sendTo(socket: PinboardSocket, key: PresenceKey, state: PresenceState): Promise<void> {
    if (key.kind === 'pin') socket.emit('presence', { pinId: key.id, viewers: state.count });
    else socket.emit('board:presence', { boardId: key.id, users: await this.#options.usernames(state.userIds) });
  }

  /** Whether `state` differs from what was last emitted for the target. */
  differs(key: PresenceKey, state: PresenceState): boolean {
    return this.#lastState.get(targetName(key)) !== signature(state);
  }

  /** Nothing of the target is present here any more: nothing to compare with. */
  forget(key: PresenceKey): void {
    this.#lastState.delete(targetName(key));
  }

  /**
   * A target's state changed: emit it now unless one was emitted within the interval; then
   * changes during the interval are emitted (read afresh) once it ends.
   */
  changed(key: PresenceKey, state: PresenceState): void {
    const name = targetName(key);
    const cooldown = this.#cooldowns.get(name);
    if (cooldown) {
      cooldown.dirty = true;
      return;
    }
    this.#startCooldown(name, key);
    void this.#broadcast(key, state);
  }

  close(): void {
    this.#closed = true;
    for (const cooldown of this.#cooldowns.values()) clearTimeout(cooldown.timer);
    this.#cooldowns.clear();
  }

  #startCooldown(name: string, key: PresenceKey): void {
    if (this.#closed) return;
    const cooldown: Cooldown = {
      dirty: false,
      timer: setTimeout(() => {
        this.#cooldowns.delete(name);
        if (!cooldown.dirty) return;
        this.#startCooldown(name, key);
        this.#options.read(key).then(
          (state) => this.#broadcast(key, state),
          (error: unknown) => this.#options.onError(error, 'presence read'),
        );
      }, this.#options.emitIntervalMs),
    };
    cooldown.timer.unref();
    this.#cooldowns.set(name, cooldown);
  }

  async #broadcast(key: PresenceKey, state: PresenceState): Promise<void> {
    if (this.#options.present(key)) this.#lastState.set(targetName(key), signature(state));
    try {
      // A pin's count goes to its watchers too (room pin:<id>); one emit to both rooms reaches a
      // socket in both once.
      if (key.kind === 'pin') this.#io.to([pinRoom(key.id), presenceRoom(key)]).emit('presence', { pinId: key.id, viewers: state.count });
      else this.#io.to(presenceRoom(key)).emit('board:presence', { boardId: key.id, users: await this.#options.usernames(state.userIds) });
    } catch (error) {
      this.#options.onError(error, 'presence emit');
    }
  }
}
