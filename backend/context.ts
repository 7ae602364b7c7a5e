import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { EventBus } from './events/event-bus.ts';

/** What every service needs: the database and the bus to announce committed changes on. */
export interface ServiceContext {
  db: Kysely<DB>;
  events: EventBus;
}
