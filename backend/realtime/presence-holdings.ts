import { targetName } from './presence-emitter.ts';
import type { PresenceEntry, PresenceKey } from './presence-store.ts';

/** This instance's present sockets on one pin or board. */
export interface Target {
  key: PresenceKey;
  entries: Map<string, PresenceEntry>;
}

/**
 * What this instance's sockets are present on, both ways: per socket its targets (a disconnect
 * leaves them all), per target its sockets (the heartbeat refreshes them; an eviction finds them).
 * The store (./presence-store.ts) holds every instance's entries; this holds only this one's.
 */
export class PresenceHoldings {
  /** Socket id → the targets it is present on. */
  readonly #bySocket = new Map<string, Map<string, PresenceKey>>();
  /** Targets with at least one present socket on this instance. */
  readonly #targets = new Map<string, Target>();
  readonly #onTargetGone: (key: PresenceKey) => void;

  constructor(onTargetGone: (key: PresenceKey) => void) {
    this.#onTargetGone = onTargetGone;
  }

  holds(socketId: string, key: PresenceKey): boolean {
    return this.#bySocket.get(socketId)?.has(targetName(key)) ?? false;
  }

  /** How many targets the socket is present on. */
  count(socketId: string): number {
    return this.#bySocket.get(socketId)?.size ?? 0;
  }

  target(key: PresenceKey): Target | undefined {
    return this.#targets.get(targetName(key));
  }

  targets(): Target[] {
    return [...this.#targets.values()];
  }

  stats(): { targets: number; sockets: number } {
    return { targets: this.#targets.size, sockets: this.#bySocket.size };
  }

  add(key: PresenceKey, entry: PresenceEntry): void {
    const name = targetName(key);
    let held = this.#bySocket.get(entry.socketId);
    if (!held) this.#bySocket.set(entry.socketId, (held = new Map()));
    held.set(name, key);
    let target = this.#targets.get(name);
    if (!target) this.#targets.set(name, (target = { key, entries: new Map() }));
    target.entries.set(entry.socketId, entry);
  }

  remove(socketId: string, key: PresenceKey): void {
    const name = targetName(key);
    const held = this.#bySocket.get(socketId);
    held?.delete(name);
    if (held?.size === 0) this.#bySocket.delete(socketId);
    this.#removeFromTarget(name, socketId);
  }

  /** Everything the socket was present on, now forgotten (its disconnect). */
  removeSocket(socketId: string): PresenceKey[] {
    const held = this.#bySocket.get(socketId);
    if (!held) return [];
    this.#bySocket.delete(socketId);
    for (const name of held.keys()) this.#removeFromTarget(name, socketId);
    return [...held.values()];
  }

  #removeFromTarget(name: string, socketId: string): void {
    const target = this.#targets.get(name);
    target?.entries.delete(socketId);
    if (target?.entries.size === 0) {
      this.#targets.delete(name);
      this.#onTargetGone(target.key);
    }
  }
}
