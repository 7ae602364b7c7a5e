import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { openDatabase, type Database } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { seedDemoData } from '../../db/seed.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Config } from '../config.ts';
import { adapterClients, connectRedis, redisTarget } from '../redis.ts';

export interface Data {
  database: Database;
  /** The read replica's pool, when DATABASE_REPLICA_URL is set (it connects on first use). */
  replica: Database | undefined;
  /** The demo's pins when this start seeded them (their pictures are imported as jobs). */
  seeded: Awaited<ReturnType<typeof seedDemoData>>;
  /** The commands connection, when REDIS_URL or REDIS_CLUSTER_URLS is set. */
  redis: Redis | undefined;
  /** The socket adapter's publisher and subscriber, when Redis is. */
  pubSub: [Redis, Redis] | undefined;
  /** Disconnects Redis, then closes the database. */
  close(): Promise<void>;
}

/**
 * Where the data is: the database (migrated and seeded when AUTO_MIGRATE / AUTO_SEED say so) and,
 * when REDIS_URL or REDIS_CLUSTER_URLS is set, Redis. If any of it fails, what was opened is
 * closed again.
 */
export async function openData(config: Config, logger: Logger): Promise<Data> {
  const database = await openDatabase(config.database, {
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
  // A replica that is down must not slow reads: they go to the primary once a connection fails fast.
  const replica = config.replica
    ? await openDatabase(
        { kind: 'postgres', url: config.replica.url },
        {
          connectTimeoutMs: 1000,
          onPoolError: (error) => logger.warn({ err: error }, 'replica connection lost'),
        },
      )
    : undefined;
  let clients: Redis[] = [];
  const close = async () => {
    for (const client of clients) client.disconnect();
    await replica?.close();
    await database.close();
  };
  try {
    if (config.autoMigrate) {
      const applied = await migrateToLatest(database.db);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    const seeded = config.autoSeed ? await seedDemoData(database.db, { demo: config.demo, hashPassword }) : null;
    if (seeded) logger.info({ email: config.demo.email, pins: seeded.pins.length }, 'demo data seeded');
    const target = redisTarget(config);
    if (!target) return { database, replica, seeded, redis: undefined, pubSub: undefined, close };
    const redis = await connectRedis(target, (error) => logger.warn({ err: error }, 'redis error'));
    const pubSub = adapterClients(redis);
    clients = [...pubSub, redis];
    for (const client of pubSub) client.on('error', (error) => logger.warn({ err: error }, 'redis adapter error'));
    await Promise.all(pubSub.map((client) => client.connect()));
    catchFailures(pubSub[0], ['publish', 'spublish'], (error) => logger.warn({ err: error }, 'live event not published'));
    catchFailures(pubSub[1], ['subscribe', 'psubscribe', 'ssubscribe'], (error) => logger.warn({ err: error }, 'live events not subscribed'));
    return { database, replica, seeded, redis, pubSub, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Commands sent without their promise handled would each become an unhandled rejection (which
 * crashes a Node process) when Redis goes away: the Redis adapter's `publish` (`spublish` on a
 * cluster) for every emit, and the subscriber's `subscribe`/`psubscribe` that ioredis re-sends by
 * itself on every reconnect (closed again before they are answered, they fail with "Connection is
 * closed."). Each promise gets a handler: the event or the resubscription is lost and logged (the
 * write that caused an event stands; clients resync on reconnect; the next reconnect subscribes
 * again).
 */
function catchFailures(client: Redis, commands: ReadonlyArray<'publish' | 'spublish' | 'subscribe' | 'psubscribe' | 'ssubscribe'>, onError: (error: unknown) => void): void {
  for (const name of commands) {
    const send = (client[name] as (...args: unknown[]) => Promise<unknown>).bind(client);
    const guarded = (...args: unknown[]) => {
      const result = send(...args);
      result.catch(onError);
      return result;
    };
    // The same method, its promise now handled: callers see the same result.
    (client as unknown as Record<string, unknown>)[name] = guarded;
  }
}
