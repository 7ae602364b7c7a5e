// The change log on the client (docs/change-log.md): each numbered event is applied at most once, and
// what the socket missed is pulled from GET /api/changes instead of refetching the screens.
//
// Two numbers, nothing persisted (a page load starts afresh):
//   - `cursor`, complete-through: every change up to it that this tab may see has been applied
//     (or predates this page). It moves only with an answer of GET /api/changes (to its
//     `lastSeq`, or to its last change when the answer was full; contract/changes.ts afterPage):
//     socket events arrive per room and in no global order, so one event says nothing about the
//     seqs below it. It starts at the first `changes:head` the socket gets: the screens
//     a fresh page shows come from its REST loads, as before.
//   - `applied`: the seqs above the cursor already applied (from the socket or a pull), so the
//     same change coming both ways is applied once. A seq at or below the cursor (and above where
//     the page started) was covered by a pull and is skipped.
// Pulls happen after a reconnect (once the watched pins are joined again) and whenever a
// `changes:head` is past the cursor (the server sends one on connect, after its Redis adapter
// reconnects, and now and then while the log moves). Only a `{reset: true}` answer (the log no
// longer reaches back to the cursor) falls back to refetching the screens (./resync.ts).
import { afterPage } from '../../contract/change-paging.ts';
import type { ChangesAnswer } from '../../contract/changes.ts';

export interface ChangeTrackerDeps {
  /** Applies one event to the store (through the load replay, ./load-replay.ts). */
  apply(name: string, payload: unknown): void;
  fetchChanges(since: number): Promise<ChangesAnswer>;
  /** The full refetch of what the screens show (./resync.ts). */
  refetchScreens(isCurrent: () => boolean): Promise<void>;
  /** First delay before a failed pull is tried again (doubles, up to 30 s). */
  retryMs?: number;
}

export interface ChangeTracker {
  /** A socket event: a change is applied unless it already was; `changes:head` may start a pull. */
  event(name: string, payload: unknown): void;
  /**
   * A socket connected. `reconnect` false: a new socket for a new user or a fresh page, so start
   * over (the cursor comes from its first head). True: pull what was missed once `ready` (the
   * watched pins joined again) resolves.
   */
  connected(reconnect: boolean, isCurrent: () => boolean, ready: Promise<unknown>): void;
  /** Resolves when the pull in progress (if any) is done. */
  settled(): Promise<void>;
  /** For tests and the benchmark: where the tracker stands. */
  state(): { cursor: number | undefined; floor: number | undefined; pending: number };
}

const MAX_RETRY_MS = 30_000;

function seqOf(payload: unknown): number | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  const seq = (payload as { seq?: unknown }).seq;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : undefined;
}

/** The seqs applied so far: every one through `cursor` (above `floor`), and the set `applied` above it. */
class AppliedSeqs {
  /** Where this page (or user) started: seqs up to it are older than the tracker and not tracked. */
  floor: number | undefined;
  cursor: number | undefined;
  readonly applied = new Set<number>();

  /** True when `seq` is new: it is then counted as applied. */
  take(seq: number): boolean {
    if (this.applied.has(seq)) return false;
    if (this.cursor !== undefined && this.floor !== undefined && seq > this.floor && seq <= this.cursor) return false;
    if (this.floor === undefined || seq > this.floor) this.applied.add(seq);
    return true;
  }

  advance(to: number): void {
    if (this.cursor !== undefined && to <= this.cursor) return;
    this.cursor = to;
    for (const seq of this.applied) if (seq <= to) this.applied.delete(seq);
  }

  startAt(seq: number): void {
    this.floor = seq;
    this.cursor = undefined;
    this.advance(seq);
  }

  clear(): void {
    this.floor = undefined;
    this.cursor = undefined;
    this.applied.clear();
  }
}

/**
 * Pulls the changes after the cursor, page by page, until the log is caught up; a `{reset: true}`
 * answer refetches the screens instead. Stops as soon as `stale()` (another user or socket).
 */
async function pullPages(deps: ChangeTrackerDeps, seqs: AppliedSeqs, current: () => boolean, stale: () => boolean): Promise<void> {
  for (;;) {
    if (seqs.cursor === undefined || stale()) return;
    const answer = await deps.fetchChanges(seqs.cursor);
    if (stale()) return;
    if ('reset' in answer) {
      // Set first: events that arrive during the refetch are newer than its answer and applied
      // over it (the refetch is a load with replay).
      seqs.startAt(answer.lastSeq);
      await deps.refetchScreens(current);
      return;
    }
    for (const change of answer.changes) {
      if (seqs.take(change.seq)) deps.apply(change.event, { ...change.data, seq: change.seq });
    }
    const { cursor: next, more } = afterPage(answer);
    seqs.advance(next);
    if (!more) return;
  }
}

export function createChangeTracker(deps: ChangeTrackerDeps): ChangeTracker {
  const firstRetryMs = deps.retryMs ?? 1_000;
  const seqs = new AppliedSeqs();
  let isCurrent: () => boolean = () => false;
  let running: Promise<void> | null = null;
  let again = false;
  let retryDelay = firstRetryMs;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped on a fresh start: a pull of the previous user or socket drops its answer. */
  let generation = 0;

  const pullOnce = (current: () => boolean, gen: number) => pullPages(deps, seqs, current, () => gen !== generation || !current());

  function pull(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    const current = isCurrent;
    const gen = generation;
    running = (async () => {
      try {
        do {
          again = false;
          await pullOnce(current, gen);
        } while (again && gen === generation && current());
        retryDelay = firstRetryMs;
      } catch (error) {
        console.warn('Live updates: could not fetch the missed changes', error);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => {
          if (gen === generation && current()) void pull();
        }, retryDelay);
        retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    event(name, payload) {
      if (name === 'changes:head') {
        const head = seqOf(payload);
        if (head === undefined) return;
        if (seqs.cursor === undefined) seqs.startAt(head);
        else if (head > seqs.cursor) void pull();
        return;
      }
      const seq = seqOf(payload);
      // Not a change (session:ended), or not numbered: applied as it comes.
      if (seq === undefined || seqs.take(seq)) deps.apply(name, payload);
    },
    connected(reconnect, current, ready) {
      isCurrent = current;
      if (!reconnect || seqs.cursor === undefined) {
        if (!reconnect) {
          generation += 1;
          clearTimeout(retryTimer);
          seqs.clear();
        } else {
          // Never got a head (the first socket dropped at once): nothing to pull from.
          void ready.then(() => deps.refetchScreens(current));
        }
        return;
      }
      void ready.then(() => pull());
    },
    settled: () => running ?? Promise.resolve(),
    state: () => ({ cursor: seqs.cursor, floor: seqs.floor, pending: seqs.applied.size }),
  };
}
