// Which pins this tab watches (DESIGN §5 `pins:watch` / `pins:unwatch`), with reference counts so
// several screens can watch overlapping pins. Changes are coalesced for `debounceMs` and sent as
// the difference between what the screens want and what the server holds, in chunks of at most
// `chunkSize` ids, never more than `maxMessages` per `windowMs` (the server allows 30 per 10 s per
// socket and answers more with an error ack). A new connection starts from nothing: everything
// wanted is sent again.
import type { WatchAck } from '../../contract/events.ts';
import { LIMITS } from '../../contract/limits.ts';

export type WatchKind = 'pins:watch' | 'pins:unwatch';
export type SendWatch = (kind: WatchKind, pinIds: number[]) => Promise<WatchAck>;

export interface WatchOptions {
  debounceMs?: number;
  chunkSize?: number;
  maxMessages?: number;
  windowMs?: number;
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

export class WatchRegistry {
  readonly #counts = new Map<number, number>();
  /** What the server holds for the current connection (optimistically, once sent). */
  readonly #sent = new Set<number>();
  #send: SendWatch | null = null;
  #epoch = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDue = 0;
  #sendTimes: number[] = [];
  /** Error acks in a row: each doubles the retry delay (up to 16×). */
  #failures = 0;
  readonly #debounceMs: number;
  readonly #chunkSize: number;
  readonly #maxMessages: number;
  readonly #windowMs: number;
  readonly #retryMs: number;
  readonly #now: () => number;
  readonly #log: (message: string) => void;

  constructor(options: WatchOptions = {}) {
    this.#debounceMs = options.debounceMs ?? 100;
    this.#chunkSize = Math.max(1, Math.min(options.chunkSize ?? LIMITS.watchIds, LIMITS.watchIds));
    // Below the server's 30 per 10 s, with room for clock drift between the two windows.
    this.#maxMessages = options.maxMessages ?? 25;
    this.#windowMs = options.windowMs ?? 10_500;
    this.#retryMs = options.retryMs ?? 2_000;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? ((message) => console.warn(message));
  }

  /** Adds one reference to each id (an id listed twice counts twice). */
  add(pinIds: Iterable<number>): void {
    let changed = false;
    for (const id of pinIds) {
      if (!Number.isSafeInteger(id) || id <= 0) continue;
      const n = this.#counts.get(id) ?? 0;
      this.#counts.set(id, n + 1);
      if (n === 0) changed = true;
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

  /** Every pin some screen watches, ascending. */
  watched(): number[] {
    return [...this.#counts.keys()].sort((a, b) => a - b);
  }

  /** The pins the server holds for this connection, as far as this side knows. */
  held(): number[] {
    return [...this.#sent].sort((a, b) => a - b);
  }

  /**
   * A connection (first or new) is up: the server holds nothing for it yet, so everything wanted
   * is sent at once (within the message budget). Resolves once those first messages are answered.
   */
  connected(send: SendWatch): Promise<void> {
    this.#epoch += 1;
    this.#send = send;
    this.#sent.clear();
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

  #flush(): Promise<void> {
    const send = this.#send;
    if (!send) return Promise.resolve();
    const epoch = this.#epoch;
    const toWatch = this.watched().filter((id) => !this.#sent.has(id));
    const toUnwatch = this.held().filter((id) => !this.#counts.has(id));
    const messages: Array<[WatchKind, number[]]> = [
      ...chunk(toWatch, this.#chunkSize).map((ids): [WatchKind, number[]] => ['pins:watch', ids]),
      ...chunk(toUnwatch, this.#chunkSize).map((ids): [WatchKind, number[]] => ['pins:unwatch', ids]),
    ];
    const answers: Array<Promise<void>> = [];
    for (const [kind, ids] of messages) {
      const wait = this.#budgetWait();
      if (wait > 0) {
        this.#schedule(wait); // the rest goes when the budget allows (recomputed then)
        break;
      }
      this.#sendTimes.push(this.#now());
      for (const id of ids) {
        if (kind === 'pins:watch') this.#sent.add(id);
        else this.#sent.delete(id);
      }
      const failed = (error: string) => {
        if (epoch !== this.#epoch) return; // an answer for a connection that is gone
        this.#log(`${kind} (${ids.length} pins) failed: ${error}`);
        for (const id of ids) {
          if (kind === 'pins:watch') this.#sent.delete(id);
          else this.#sent.add(id);
        }
        this.#failures += 1;
        this.#schedule(this.#retryMs * 2 ** Math.min(this.#failures - 1, 4));
      };
      answers.push(
        send(kind, ids).then(
          (ack) => {
            if (!ack.ok) failed(ack.error);
            else if (epoch === this.#epoch) this.#failures = 0;
          },
          (error: unknown) => failed(error instanceof Error ? error.message : String(error)),
        ),
      );
    }
    return Promise.all(answers).then(() => undefined);
  }
}
