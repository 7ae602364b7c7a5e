import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

const BATCH = 500;

/**
 * Keeps tokens' `last_used_at` without a write per request: a call only notes the time in memory,
 * and every interval one statement per 500 tokens writes the latest use of each token seen since.
 * A write never moves the time backwards (another instance may have written a later use). If the
 * database is away, the uses stay noted and go out with the next flush; an instance that dies loses
 * at most one interval of them, which only makes "last used" a little older.
 */
export class LastUsedRecorder {
  readonly #db: Kysely<DB>;
  readonly #intervalMs: number;
  readonly #onError: (error: unknown) => void;
  #pending = new Map<number, Date>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(db: Kysely<DB>, options: { intervalMs: number; onError: (error: unknown) => void }) {
    this.#db = db;
    this.#intervalMs = options.intervalMs;
    this.#onError = options.onError;
  }

  mark(tokenId: number): void {
    this.#pending.set(tokenId, new Date());
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.#intervalMs);
    this.#timer.unref();
  }

  /** Writes what was noted; one flush at a time. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  /** Stops the timer and writes what is left (before the database closes). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const uses = [...this.#pending];
    this.#pending = new Map();
    for (let at = 0; at < uses.length; at += BATCH) {
      const batch = uses.slice(at, at + BATCH);
      try {
        const rows = sql.join(batch.map(([id, when]) => sql`(${id}::int, ${when.toISOString()}::timestamptz)`));
        await sql`
          update api_tokens set last_used_at = used.at
          from (values ${rows}) as used (id, at)
          where api_tokens.id = used.id and (api_tokens.last_used_at is null or api_tokens.last_used_at < used.at)`.execute(this.#db);
      } catch (error) {
        // Kept for the next flush, unless a newer use was noted meanwhile.
        for (const [id, when] of batch) if (!this.#pending.has(id)) this.#pending.set(id, when);
        this.#onError(error);
      }
    }
  }
}
