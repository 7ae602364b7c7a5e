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

export function createChangeTracker(deps: ChangeTrackerDeps): ChangeTracker {
  const firstRetryMs = deps.retryMs ?? 1_000;
  /** Where this page (or user) started: seqs up to it are older than the tracker and not tracked. */
  let floor: number | undefined;
  let cursor: number | undefined;
  const applied = new Set<number>();
  let isCurrent: () => boolean = () => false;
  let running: Promise<void> | null = null;
  let again = false;
  let retryDelay = firstRetryMs;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped on a fresh start: a pull of the previous user or socket drops its answer. */
  let generation = 0;

  /** True when `seq` is new: it is then counted as applied. */
  const take = (seq: number): boolean => {
    if (applied.has(seq)) return false;
    if (cursor !== undefined && floor !== undefined && seq > floor && seq <= cursor) return false;
    if (floor === undefined || seq > floor) applied.add(seq);
    return true;
  };

  const advance = (to: number) => {
    if (cursor !== undefined && to <= cursor) return;
    cursor = to;
    for (const seq of applied) if (seq <= to) applied.delete(seq);
  };

  const startAt = (seq: number) => {
    floor = seq;
    cursor = undefined;
    advance(seq);
  };

  async function pullOnce(current: () => boolean, gen: number): Promise<void> {
    const stale = () => gen !== generation || !current();
    for (;;) {
      if (cursor === undefined || stale()) return;
      const answer = await deps.fetchChanges(cursor);
      if (stale()) return;
      if ('reset' in answer) {
        // Set first: events that arrive during the refetch are newer than its answer and applied
        // over it (the refetch is a load with replay).
        startAt(answer.lastSeq);
        await deps.refetchScreens(current);
        return;
      }
      for (const change of answer.changes) {
        if (take(change.seq)) deps.apply(change.event, { ...change.data, seq: change.seq });
      }
      const { cursor: next, more } = afterPage(answer);
      advance(next);
      if (!more) return;
    }
  }

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
        if (cursor === undefined) startAt(head);
        else if (head > cursor) void pull();
        return;
      }
      const seq = seqOf(payload);
      // Not a change (session:ended), or not numbered: applied as it comes.
      if (seq === undefined || take(seq)) deps.apply(name, payload);
    },
    connected(reconnect, current, ready) {
      isCurrent = current;
      if (!reconnect || cursor === undefined) {
        if (!reconnect) {
          generation += 1;
          clearTimeout(retryTimer);
          floor = undefined;
          cursor = undefined;
          applied.clear();
        } else {
          // Never got a head (the first socket dropped at once): nothing to pull from.
          void ready.then(() => deps.refetchScreens(current));
        }
        return;
      }
      void ready.then(() => pull());
    },
    settled: () => running ?? Promise.resolve(),
    state: () => ({ cursor, floor, pending: applied.size }),
  };
}
