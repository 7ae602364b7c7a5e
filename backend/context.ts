import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { EventPublisher } from './events/event-bus.ts';

/**
 * What every service needs: the database and where to announce committed changes. Usually the pool
 * and the EventBus; inside a transaction (see backend/idempotency/) the transaction and a buffer
 * that is flushed only after the commit.
 */
export interface ServiceContext {
  db: Kysely<DB>;
  events: EventPublisher;
}
