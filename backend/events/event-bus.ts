import type { DomainEvents } from './domain-events.ts';

/** What services need of the bus: announcing committed changes. */
export interface EventPublisher {
  publish<K extends keyof DomainEvents>(event: K, payload: DomainEvents[K]): void;
}

type Listener<K extends keyof DomainEvents> = (payload: DomainEvents[K]) => void;

/**
 * A typed in-process publish/subscribe bus. Publishing never throws: a write that committed stands
 * even if a listener fails (the failure is reported to `onListenerError`; clients resync later).
 */
export class EventBus implements EventPublisher {
  readonly #listeners = new Map<keyof DomainEvents, Set<Listener<never>>>();
  readonly #onListenerError: (error: unknown, event: keyof DomainEvents) => void;

  constructor(onListenerError: (error: unknown, event: keyof DomainEvents) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  on<K extends keyof DomainEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  publish<K extends keyof DomainEvents>(event: K, payload: DomainEvents[K]): void {
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
