import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

// How many upload bodies this instance receives at once, in all and per user. A body is written to
// a temporary file as it arrives (upload.ts), so memory does not grow with it, but each holds a
// connection, a file of up to 20 MB and then a processing slot: beyond the bounds the sender is
// told to come back (503 for the instance, 429 for the user) before a byte of the body is read.

/** Seconds a refused sender is told to wait: about one upload's time. */
const RETRY_AFTER_SECONDS = 5;

export class UploadGate {
  private total = 0;
  private readonly perUser = new Map<number, number>();
  private readonly maxTotal: number;
  private readonly maxPerUser: number;

  constructor(options: { inFlight: number; inFlightPerUser: number }) {
    this.maxTotal = options.inFlight;
    this.maxPerUser = options.inFlightPerUser;
  }

  /** Takes a place for `userId`'s upload or throws 429/503; the answer gives it back (once). */
  enter(userId: number): () => void {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.maxPerUser) throw new HttpError(429, MSG.uploadInProgress, { retryAfterSeconds: RETRY_AFTER_SECONDS });
    if (this.total >= this.maxTotal) throw new HttpError(503, MSG.busy, { retryAfterSeconds: RETRY_AFTER_SECONDS });
    this.total += 1;
    this.perUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    };
  }
}
