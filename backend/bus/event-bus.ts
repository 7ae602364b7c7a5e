import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { BusEvents } from './bus-events.ts';

/** What services need of the bus: announcing what happened (changes only through write()). */
export interface EventPublisher {
  publish<K extends keyof BusEvents>(event: K, payload: BusEvents[K]): void;
}

type Listener<K extends keyof BusEvents> = (payload: BusEvents[K]) => void;

/**
 * A typed in-process publish/subscribe bus. Publishing never throws: a write that committed stands
 * even if a listener fails (the failure is reported to `onListenerError`; clients resync later).
 */
export class EventBus implements EventPublisher {
  readonly #listeners = new Map<keyof BusEvents, Set<Listener<never>>>();
  readonly #onListenerError: (error: unknown, event: keyof BusEvents) => void;

  constructor(onListenerError: (error: unknown, event: keyof BusEvents) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  on<K extends keyof BusEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Listens to one kind of change, given its data as the log keeps it (the relays take every `change`). */
  onChange<E extends ChangeEventName>(event: E, listener: (data: ChangeData<E>) => void): () => void {
    return this.on('change', (change) => {
      // The change of that name carries that name's data (write() made them a pair).
      if (change.event === event) listener(change.data as ChangeData<E>);
    });
  }

  publish<K extends keyof BusEvents>(event: K, payload: BusEvents[K]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of set) {
      try {
        (listener as Listener<K>)(payload);
      } catch (error) {
        this.#onListenerError(error, event);
      }
    }
  }
}
