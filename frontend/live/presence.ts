// Which pins and boards this tab is present on (docs/presence.md `presence:join` / `presence:leave`),
// reference-counted so two screens (or a screen mounted twice) share one presence. A new
// connection starts from nothing on the server: everything is joined again, and the server answers
// each join with the current state. The count of a target nobody shows any more is forgotten.
import type { WatchAck } from '../../contract/events.ts';
import { PRESENCE_MESSAGES, type PresenceEvent, type PresenceTarget } from '../../contract/presence.ts';

export type SendPresence = (event: PresenceEvent, target: PresenceTarget) => Promise<WatchAck>;

export interface PresenceRegistryOptions {
  /** First delay before joining again after an error ack (doubles, up to 8×; then until the next connection). */
  retryMs?: number;
  log?: (message: string) => void;
  /** A target is no longer shown. */
  forgotten?: (target: PresenceTarget) => void;
}

const MAX_ATTEMPTS = 4;

const nameOf = (target: PresenceTarget) => ('pinId' in target ? `pin:${target.pinId}` : `board:${target.boardId}`);

export class PresenceRegistry {
  /** Target name → how many screens show it, and the target. */
  readonly #wanted = new Map<string, { count: number; target: PresenceTarget }>();
  #send: SendPresence | null = null;
  #epoch = 0;
  readonly #retryMs: number;
  readonly #log: (message: string) => void;
  readonly #forgotten: (target: PresenceTarget) => void;

  constructor(options: PresenceRegistryOptions = {}) {
    this.#retryMs = options.retryMs ?? 2_000;
    this.#log = options.log ?? ((message) => console.warn(message));
    this.#forgotten = options.forgotten ?? (() => {});
  }

  add(target: PresenceTarget): void {
    const name = nameOf(target);
    const entry = this.#wanted.get(name);
    if (entry) {
      entry.count += 1;
      return;
    }
    this.#wanted.set(name, { count: 1, target });
    this.#join(name, target, 1);
  }

  remove(target: PresenceTarget): void {
    const name = nameOf(target);
    const entry = this.#wanted.get(name);
    if (!entry) return;
    if (entry.count > 1) {
      entry.count -= 1;
      return;
    }
    this.#wanted.delete(name);
    this.#forgotten(target);
    const send = this.#send;
    if (send)
      void send('presence:leave', target).then((ack) => {
        if (!ack.ok) this.#log(`presence:leave failed: ${ack.error}`); // the server drops it at disconnect anyway
      });
  }

  /** Everything shown, as the server should hold it. */
  present(): PresenceTarget[] {
    return [...this.#wanted.values()].map((entry) => entry.target);
  }

  connected(send: SendPresence): void {
    this.#epoch += 1;
    this.#send = send;
    for (const [name, { target }] of this.#wanted) this.#join(name, target, 1);
  }

  disconnected(): void {
    this.#epoch += 1;
    this.#send = null;
  }

  #join(name: string, target: PresenceTarget, attempt: number): void {
    const send = this.#send;
    if (!send) return; // joined when the connection comes
    const epoch = this.#epoch;
    void send('presence:join', target).then((ack) => {
      if (ack.ok || epoch !== this.#epoch || !this.#wanted.has(name)) return;
      this.#log(`presence:join ${name} failed: ${ack.error}`);
      // Not a member of the board: asking again will not change that.
      if (attempt >= MAX_ATTEMPTS || ack.error === PRESENCE_MESSAGES.boardNotFound) return;
      setTimeout(
        () => {
          if (epoch === this.#epoch && this.#wanted.has(name)) this.#join(name, target, attempt + 1);
        },
        this.#retryMs * 2 ** (attempt - 1),
      );
    });
  }
}
