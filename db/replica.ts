import type { Kysely } from 'kysely';
import type { Database } from './connect.ts';
import type { DB } from './schema.ts';

// Reads from a streaming replica (DATABASE_REPLICA_URL, docs/operations.md#a-read-replica). The
// replica is used only when it is known to be fresh enough: its replay position is asked at most
// every CHECK_MS and shared by every read meanwhile; a reader that must see a write of its own
// gives that write's position (`after`), and is sent to the primary unless the replica has
// replayed it. A replica that is down, slow to answer, lagging more than `maxLagMs` or failing a
// read sends reads to the primary: a read is never refused because of the replica.

/** A WAL position as a number (`X/Y` is two 32-bit hex halves). */
export type Lsn = bigint;

export function parseLsn(text: string): Lsn | undefined {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

export interface ReplicaOptions {
  /** Past this lag (ms behind the primary's commits) no read goes to the replica. */
  maxLagMs: number;
  /** How long one answer about the replica's position is trusted. */
  checkMs?: number;
  /** How long a read waits for that answer before going to the primary. */
  waitMs?: number;
  /** After a failure, how long the replica is left alone before it is asked again. */
  retryMs?: number;
  onDown?: (error: unknown) => void;
}

interface State {
  /** Replayed through here; undefined while the replica is down or too far behind. */
  replayed: Lsn | undefined;
  at: number;
}

interface StateRow {
  replayed: string | null;
  lag_ms: string | number | null;
}

const CHECK_MS = 10;
const WAIT_MS = 50;
const RETRY_MS = 1000;

export type ReadTarget = 'replica' | 'primary';

export class ReplicaRouting {
  readonly #primary: Database;
  readonly #replica: Database;
  readonly #options: Required<Omit<ReplicaOptions, 'onDown'>> & Pick<ReplicaOptions, 'onDown'>;
  #state: State = { replayed: undefined, at: -Infinity };
  #checking: Promise<State> | undefined;
  /** Reads answered by each, and replica reads redone on the primary after a failure. */
  readonly counts = { replica: 0, primary: 0, retried: 0 };

  constructor(primary: Database, replica: Database, options: ReplicaOptions) {
    this.#primary = primary;
    this.#replica = replica;
    this.#options = { checkMs: CHECK_MS, waitMs: WAIT_MS, retryMs: RETRY_MS, ...options };
  }

  /**
   * The primary's WAL position now: taken after a write has committed, every commit before it is at
   * or below it. The insert position, not the flushed one: with synchronous_commit off a commit
   * may not be flushed yet, and a replica that replayed this far has it in any case.
   */
  async primaryPosition(): Promise<Lsn> {
    const { rows } = await this.#primary.pool.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
    const lsn = parseLsn(rows[0]?.lsn ?? '');
    if (lsn === undefined) throw new Error('pg_current_wal_insert_lsn() gave no position');
    return lsn;
  }

  /** Where a read that must see everything up to `after` (undefined: nothing of its own) goes. */
  async target(after: Lsn | undefined): Promise<ReadTarget> {
    let state = await this.#fresh();
    if (state.replayed === undefined) return 'primary';
    // A writer reading back just after its write: the shared answer predates it, ask once more
    // (one question at a time for all such readers; the replica is usually a millisecond behind).
    if (after !== undefined && state.replayed < after) state = await this.#bounded(this.#ask());
    if (state.replayed === undefined) return 'primary';
    return after === undefined || state.replayed >= after ? 'replica' : 'primary';
  }

  /**
   * Runs a read on the replica when it may answer, else on the primary. A read is a query with no
   * effect, so one that fails on the replica for any reason but the caller's own (an `ownError`,
   * such as a 404) is run again on the primary, and the replica is left alone for a while.
   */
  async read<T>(after: Lsn | undefined, read: (db: Kysely<DB>) => Promise<T>, options: { ownError: (error: unknown) => boolean; answeredBy?: (target: ReadTarget) => void }): Promise<T> {
    if ((await this.target(after)) === 'primary') {
      this.counts.primary++;
      options.answeredBy?.('primary');
      return read(this.#primary.db);
    }
    try {
      const answer = await read(this.#replica.db);
      this.counts.replica++;
      options.answeredBy?.('replica');
      return answer;
    } catch (error) {
      if (options.ownError(error)) throw error;
      this.#down(error);
      this.counts.retried++;
      options.answeredBy?.('primary');
      return read(this.#primary.db);
    }
  }

  /** The replica's state, asked again when older than CHECK_MS; a read waits WAIT_MS for it at most. */
  async #fresh(): Promise<State> {
    const now = performance.now();
    const state = this.#state;
    const ttl = state.replayed === undefined ? this.#options.retryMs : this.#options.checkMs;
    if (now - state.at < ttl) return state;
    return this.#bounded(this.#ask());
  }

  /** The question under way, or a new one. */
  #ask(): Promise<State> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  /** The answer, or "not usable" once WAIT_MS have passed (a replica that does not answer). */
  async #bounded(answer: Promise<State>): Promise<State> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<State>((resolve) => {
      timer = setTimeout(() => resolve({ replayed: undefined, at: performance.now() }), this.#options.waitMs);
    });
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * How far the replica has replayed, and how far behind it is: nothing received and not yet
   * replayed means no lag (an idle primary sends nothing, and the last replayed commit's age would
   * grow for no reason); otherwise the age of the last replayed commit. A replica that is not
   * streaming (its primary connection lost) cannot tell how far behind it is: it is not used.
   */
  async #check(): Promise<State> {
    try {
      const { rows } = await this.#replica.pool.query<StateRow>(`
        select pg_last_wal_replay_lsn()::text as replayed,
          case
            when not exists (select 1 from pg_stat_wal_receiver where status = 'streaming') then null
            when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
            else extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000
          end as lag_ms`);
      const row = rows[0];
      const lag = row?.lag_ms == null ? Infinity : Number(row.lag_ms);
      const replayed = row?.replayed ? parseLsn(row.replayed) : undefined;
      this.#state = { replayed: lag <= this.#options.maxLagMs ? replayed : undefined, at: performance.now() };
    } catch (error) {
      this.#down(error);
    }
    return this.#state;
  }

  #down(error: unknown): void {
    if (this.#state.replayed !== undefined) this.#options.onDown?.(error);
    this.#state = { replayed: undefined, at: performance.now() };
  }
}
