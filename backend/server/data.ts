import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { openDatabase, type Database } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { seedDemoData } from '../../db/seed.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Config } from '../config.ts';
import { connectRedis } from '../redis.ts';

export interface Data {
  database: Database;
  /** The demo's pins when this start seeded them (their pictures are imported as jobs). */
  seeded: Awaited<ReturnType<typeof seedDemoData>>;
  /** The commands connection, when REDIS_URL is set. */
  redis: Redis | undefined;
  /** The socket adapter's publisher and subscriber, when REDIS_URL is set. */
  pubSub: [Redis, Redis] | undefined;
  /** Disconnects Redis, then closes the database. */
  close(): Promise<void>;
}

/**
 * Where the data is: the database (migrated and seeded when AUTO_MIGRATE / AUTO_SEED say so) and,
 * when REDIS_URL is set, Redis. If any of it fails, what was opened is closed again.
 */
export async function openData(config: Config, logger: Logger): Promise<Data> {
  const database = await openDatabase(config.database, {
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
  let clients: Redis[] = [];
  const close = async () => {
    for (const client of clients) client.disconnect();
    await database.close();
  };
  try {
    if (config.autoMigrate) {
      const applied = await migrateToLatest(database.db);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    const seeded = config.autoSeed ? await seedDemoData(database.db, { demo: config.demo, hashPassword }) : null;
    if (seeded) logger.info({ email: config.demo.email, pins: seeded.pins.length }, 'demo data seeded');
    if (!config.redisUrl) return { database, seeded, redis: undefined, pubSub: undefined, close };
    const redis = await connectRedis(config.redisUrl, (error) => logger.warn({ err: error }, 'redis error'));
    // The subscriber only listens: autopipelining is for the connections that send. It sends
    // nothing but its own (re)subscriptions, which ioredis re-issues by itself on every reconnect
    // without handling their promise: so they wait for the connection (offline queue, no retry
    // limit, no timeout) rather than fail fast, as an unhandled rejection, when Redis drops again
    // just as it came back.
    const pubSub: [Redis, Redis] = [
      redis.duplicate(),
      redis.duplicate({ enableAutoPipelining: false, enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined }),
    ];
    clients = [...pubSub, redis];
    for (const client of pubSub) client.on('error', (error) => logger.warn({ err: error }, 'redis adapter error'));
    await Promise.all(pubSub.map((client) => client.connect()));
    catchPublishFailures(pubSub[0], (error) => logger.warn({ err: error }, 'live event not published'));
    return { database, seeded, redis, pubSub, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The Redis adapter calls `publish` without handling the returned promise, so while Redis is down
 * each emit would become an unhandled rejection and crash the process. Attach a handler: the event
 * is lost (the write that caused it stands; clients resync on reconnect) and the failure is logged.
 */
function catchPublishFailures(client: Redis, onError: (error: unknown) => void): void {
  const publish = client.publish.bind(client) as (channel: string | Buffer, message: string | Buffer) => Promise<number>;
  client.publish = ((channel: string | Buffer, message: string | Buffer) => {
    const result = publish(channel, message);
    result.catch(onError);
    return result;
  }) as Redis['publish'];
}
