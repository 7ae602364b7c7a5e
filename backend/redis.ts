import { Redis } from 'ioredis';

/**
 * A Redis client that fails fast: no offline queue and one retry per command, so a request made
 * while Redis is down gets an error at once (and a 503) instead of hanging. It keeps reconnecting
 * in the background, so the service recovers by itself when Redis returns.
 */
export async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: true,
    // Commands issued in one turn of the event loop (a write's live-event publishes, the session
    // reads of concurrent requests) go out in one socket write instead of one each.
    enableAutoPipelining: true,
  });
  redis.on('error', onError);
  await redis.connect();
  return redis;
}
