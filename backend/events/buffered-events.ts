import type { DomainEvents } from './domain-events.ts';
import type { EventPublisher } from './event-bus.ts';

/**
 * A publisher for services running inside a transaction: it holds their events until the caller
 * knows the transaction committed (`flush`), so nobody hears about a write that was rolled back.
 * On rollback the buffer is simply dropped.
 */
export class BufferedEvents implements EventPublisher {
  readonly #target: EventPublisher;
  readonly #pending: Array<() => void> = [];

  constructor(target: EventPublisher) {
    this.#target = target;
  }

  publish<K extends keyof DomainEvents>(event: K, payload: DomainEvents[K]): void {
    this.#pending.push(() => this.#target.publish(event, payload));
  }

  /** Passes every held event on, in order, once. */
  flush(): void {
    for (const publish of this.#pending.splice(0)) publish();
  }
}
