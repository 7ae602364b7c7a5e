// Which pins this tab watches (docs/realtime.md `pins:watch` / `pins:unwatch`), with reference counts so
// several screens can watch overlapping pins. Changes are coalesced for `debounceMs` and sent as
// the difference between what the screens want and what the server holds, in chunks of at most
// `chunkSize` ids, never more than `maxMessages` per `windowMs` (the server allows 30 per 10 s per
// socket and answers more with an error ack). A new connection starts from nothing: everything
// wanted is sent again.
//
// The server also holds at most LIMITS.watchedPinsPerSocket pins per socket and refuses a watch
// beyond that. Should the screens want more, the most recently requested ones are watched and the
// rest are not followed live (and this is logged). A pin being unwatched still counts until the
// server has answered, so the server is never asked to hold more than the cap, in whatever order
// it handles the messages.
import type { WatchAck } from '../../contract/events.ts';
import { LIMITS } from '../../contract/limits.ts';

export type WatchKind = 'pins:watch' | 'pins:unwatch';
export type SendWatch = (kind: WatchKind, pinIds: number[]) => Promise<WatchAck>;

export interface WatchOptions {
  debounceMs?: number;
  chunkSize?: number;
  maxMessages?: number;
  windowMs?: number;
  /** Most pins held at once (at most, and by default, the server's LIMITS.watchedPinsPerSocket). */
  maxWatched?: number;
  /** Delay before trying again after an error ack. */
  retryMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const ascending = (a: number, b: number) => a - b;

export class WatchRegistry {
  /** Pin id → how many screens watch it, least recently requested first. */
  readonly #counts = new Map<number, number>();
  /** What the server holds for the current connection (optimistically, once sent). */
  readonly #sent = new Set<number>();
  /** Pins in an unwatch message not answered yet: the server may still hold them. */
  readonly #releasing = new Set<number>();
  #send: SendWatch | null = null;
  #epoch = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDue = 0;
  #sendTimes: number[] = [];
  /** Error acks in a row: each doubles the retry delay (up to 16×). */
  #failures = 0;
  /** How many pins were wanted when going over the cap was last logged (0: not over it). */
  #loggedOverCap = 0;
  /** Some watches wait for unwatches to be answered, to stay within the cap. */
  #waitingForRoom = false;
  readonly #debounceMs: number;
  readonly #chunkSize: number;
  readonly #maxMessages: number;
  readonly #windowMs: number;
  readonly #maxWatched: number;
  readonly #retryMs: number;
  readonly #now: () => number;
  readonly #log: (message: string) => void;

  constructor(options: WatchOptions = {}) {
    this.#debounceMs = options.debounceMs ?? 100;
    this.#chunkSize = Math.max(1, Math.min(options.chunkSize ?? LIMITS.watchIds, LIMITS.watchIds));
    // Below the server's 30 per 10 s, with room for clock drift between the two windows.
    this.#maxMessages = options.maxMessages ?? 25;
    this.#windowMs = options.windowMs ?? 10_500;
    const cap = LIMITS.watchedPinsPerSocket;
    this.#maxWatched = Math.max(1, Math.min(options.maxWatched ?? cap, cap));
    this.#retryMs = options.retryMs ?? 2_000;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? ((message) => console.warn(message));
  }

  /** Adds one reference to each id (an id listed twice counts twice); later ids count as more recent. */
  add(pinIds: Iterable<number>): void {
    let changed = false;
    for (const id of pinIds) {
      if (!Number.isSafeInteger(id) || id <= 0) continue;
      const n = this.#counts.get(id) ?? 0;
      this.#counts.delete(id); // re-inserted last: the most recently requested
      this.#counts.set(id, n + 1);
      // Over the cap, asking again for a pin can bring it back among those watched.
      if (n === 0 || this.#counts.size > this.#maxWatched) changed = true;
    }
    if (changed) this.#schedule(this.#debounceMs);
  }

  /** Drops one reference from each id; the server is told once nobody watches it any more. */
  remove(pinIds: Iterable<number>): void {
    let changed = false;
    for (const id of pinIds) {
      const n = this.#counts.get(id);
      if (n === undefined) continue;
      if (n <= 1) {
        this.#counts.delete(id);
        changed = true;
      } else this.#counts.set(id, n - 1);
    }
    if (changed) this.#schedule(this.#debounceMs);
  }

  /** Every pin some screen watches, ascending (over the cap, more than the server is asked to hold). */
  watched(): number[] {
    return [...this.#counts.keys()].sort(ascending);
  }

  /** The pins the server holds for this connection, as far as this side knows. */
  held(): number[] {
    return [...this.#sent].sort(ascending);
  }

  /**
   * A connection (first or new) is up: the server holds nothing for it yet, so everything wanted
   * is sent at once (within the message budget). Resolves once those first messages are answered.
   */
  connected(send: SendWatch): Promise<void> {
    this.#epoch += 1;
    this.#send = send;
    this.#sent.clear();
    this.#releasing.clear();
    this.#sendTimes = []; // the server counts per socket, and this is a new one
    this.#failures = 0;
    this.#clearTimer();
    return this.#flush();
  }

  /** The connection is gone (the server dropped its rooms with it); nothing is sent until the next. */
  disconnected(): void {
    this.#epoch += 1;
    this.#send = null;
    this.#sent.clear();
    this.#releasing.clear();
    this.#clearTimer();
  }

  #clearTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Batches changes: the first change opens a window, later ones within it ride along. */
  #schedule(delayMs: number): void {
    if (!this.#send) return;
    const due = this.#now() + delayMs;
    if (this.#timer !== undefined && this.#timerDue <= due) return;
    this.#clearTimer();
    this.#timerDue = due;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#flush();
    }, delayMs);
  }

  /** Milliseconds until one more message fits the budget (0: now). */
  #budgetWait(): number {
    const now = this.#now();
    this.#sendTimes = this.#sendTimes.filter((t) => now - t < this.#windowMs);
    if (this.#sendTimes.length < this.#maxMessages) return 0;
    return (this.#sendTimes[0] ?? now) + this.#windowMs - now + 1;
  }

  /** The pins the server should hold: all that are wanted, or the most recently requested up to the cap. */
  #target(): number[] {
    const wanted = [...this.#counts.keys()];
    if (wanted.length <= this.#maxWatched) {
      this.#loggedOverCap = 0;
      return wanted;
    }
    if (wanted.length !== this.#loggedOverCap) {
      this.#loggedOverCap = wanted.length;
      this.#log(`${wanted.length} pins to watch, more than the ${this.#maxWatched} a socket may: watching the most recent ones`);
    }
    return wanted.slice(-this.#maxWatched);
  }

  /** The messages that bring the server from what it holds to the target, within the cap. */
  #messages(): Array<[WatchKind, number[]]> {
    const target = this.#target();
    const keep = new Set(target);
    const toUnwatch = this.held().filter((id) => !keep.has(id));
    const room = this.#maxWatched - this.#sent.size - this.#releasing.size;
    // Most recent first, so those win when there is not room for all until the unwatches are answered.
    const missing = target.filter((id) => !this.#sent.has(id)).reverse();
    this.#waitingForRoom = missing.length > room;
    const toWatch = missing.slice(0, Math.max(0, room)).sort(ascending);
    return [
      ...chunk(toWatch, this.#chunkSize).map((ids): [WatchKind, number[]] => ['pins:watch', ids]),
      ...chunk(toUnwatch, this.#chunkSize).map((ids): [WatchKind, number[]] => ['pins:unwatch', ids]),
    ];
  }

  #flush(): Promise<void> {
    const send = this.#send;
    if (!send) return Promise.resolve();
    const epoch = this.#epoch;
    const answers: Array<Promise<void>> = [];
    for (const [kind, ids] of this.#messages()) {
      const wait = this.#budgetWait();
      if (wait > 0) {
        this.#schedule(wait); // the rest goes when the budget allows (recomputed then)
        break;
      }
      this.#sendTimes.push(this.#now());
      for (const id of ids) {
        if (kind === 'pins:watch') this.#sent.add(id);
        else {
          this.#sent.delete(id);
          this.#releasing.add(id);
        }
      }
      const failed = (error: string) => {
        if (epoch !== this.#epoch) return; // an answer for a connection that is gone
        this.#log(`${kind} (${ids.length} pins) failed: ${error}`);
        for (const id of ids) {
          if (kind === 'pins:watch') this.#sent.delete(id);
          else if (this.#releasing.delete(id)) this.#sent.add(id);
        }
        this.#failures += 1;
        this.#schedule(this.#retryMs * 2 ** Math.min(this.#failures - 1, 4));
      };
      const answered = () => {
        if (epoch !== this.#epoch) return;
        this.#failures = 0;
        if (kind !== 'pins:unwatch') return;
        for (const id of ids) this.#releasing.delete(id);
        if (this.#waitingForRoom) this.#schedule(this.#debounceMs); // there is room for them now
      };
      answers.push(
        send(kind, ids).then(
          (ack) => (ack.ok ? answered() : failed(ack.error)),
          (error: unknown) => failed(error instanceof Error ? error.message : String(error)),
        ),
      );
    }
    return Promise.all(answers).then(() => undefined);
  }
}
