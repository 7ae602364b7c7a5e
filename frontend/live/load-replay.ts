// A screen's load fetches a snapshot and replaces a collection with it. Live events that arrive
// while the fetch is on its way may be newer than the answer, which would then undo them: a pin
// created meanwhile would vanish, a deleted one come back. So every event is also remembered for
// each load in flight and applied again once the load has stored its answer (every handler of
// ./apply.ts is idempotent). The resync after a reconnect (./resync.ts) is such a load too.
import type { EventApplier } from './apply.ts';

interface Recording {
  /** Applies again, in order, every event remembered so far. */
  replay(): void;
  /** Stops remembering. */
  stop(): void;
}

export interface LoadReplay {
  /** Applies a live event now, and remembers it for every load in flight. */
  apply(name: string, payload: unknown): void;
  /** Starts remembering the events for one load. */
  record(): Recording;
  /** Runs `load`, then applies again every event that arrived while it ran. */
  during<T>(load: () => Promise<T>): Promise<T>;
}

export function createLoadReplay(applier: EventApplier): LoadReplay {
  const recordings = new Set<Array<[string, unknown]>>();

  const record = (): Recording => {
    const events: Array<[string, unknown]> = [];
    recordings.add(events);
    return {
      replay: () => events.forEach(([name, payload]) => applier.apply(name, payload)),
      stop: () => void recordings.delete(events),
    };
  };

  return {
    apply(name, payload) {
      for (const events of recordings) events.push([name, payload]);
      applier.apply(name, payload);
    },
    record,
    async during(load) {
      const recording = record();
      try {
        const result = await load();
        recording.replay();
        return result;
      } finally {
        recording.stop();
      }
    },
  };
}
