import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { SessionBody } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { REDIS_URL } from '../support/database.ts';
import { timeUntil } from '../support/eventually.ts';
import { startServer, type TestServer } from '../support/server.ts';

// Two app instances on one database and one Redis, as behind a load balancer. Runs against the
// machine's Redis; if Redis is not there this suite fails (it is never skipped).
let first: TestServer;
let second: TestServer;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  // Instances behind a balancer share Postgres (PGlite is one process's database, so both Vitest
  // projects use Postgres here). The per-address auth limit is raised because Redis keeps its
  // counters across test runs on this machine.
  const env = { AUTH_RATE_LIMIT_PER_IP: '100000' };
  first = await startServer({ db: 'postgres', redis: true, env });
  second = await startServer({ db: 'postgres', redis: true, env, databaseUrl: first.databaseUrl as string });
});
afterAll(async () => {
  await second?.stop();
  await first?.stop();
  redis?.disconnect();
});

/** A client whose cookies came from one instance, now talking to another. */
function moveTo(client: ApiClient, server: TestServer): ApiClient {
  const moved = new ApiClient(server.url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

describe('sessions in Redis', () => {
  test('the session lives in Redis under the pinboard prefix', async () => {
    const { client } = await signUpUser(first.url);
    const sid = decodeURIComponent(client.cookies.get('pinboard.sid') ?? '').replace(/^s:/, '').split('.')[0];
    const stored = await redis.get(`pinboard:sess:${sid}`);
    expect(stored).toBeTruthy();
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ userId: expect.any(Number) });
  });

  test('a session (and its CSRF token) made on instance 1 is accepted by instance 2', async () => {
    const { client, user } = await signUpUser(first.url);
    const onSecond = moveTo(client, second);
    expect((await onSecond.get<SessionBody>('/api/auth/')).body.user?.id).toBe(user.id);
    const board = await onSecond.post<Board>('/api/boards/', { name: 'Made via instance 2' });
    expect(board.status).toBe(201);
    expect(board.body.user_id).toBe(user.id);
    expect((await client.get<Board>(`/api/boards/${board.body.id}`)).body.name).toBe('Made via instance 2');
  });

  test('logout on instance 2 ends the session on instance 1 too, well before its cached copy would expire', async () => {
    const { client } = await signUpUser(first.url);
    expect((await client.get<SessionBody>('/api/auth/')).body.user).not.toBeNull(); // instance 1 now remembers it
    await moveTo(client, second).get('/api/auth/logout');
    // Instance 2 tells instance 1 through the socket adapter, which takes a moment: "at once" is
    // checked as "within 2 s", well inside the 5 s that instance 1 would otherwise trust its copy.
    const forgotten = await timeUntil(2_000, async () => (await client.get<SessionBody>('/api/auth/')).body.user === null);
    console.log(`instance 1 treated the session as ended ${forgotten?.toFixed(0)} ms after the logout answered`);
    expect(forgotten).toBeDefined();
  });

  test('rate-limit counters are shared through Redis', async () => {
    const { user } = await signUpUser(first.url);
    const keys = await redis.keys('pinboard:rl:*');
    expect(keys.length).toBeGreaterThan(0);
    // Failed logins counted on instance 1 and 2 add up for the account (default limit: 10).
    for (let i = 0; i < 10; i++) {
      const target = i % 2 === 0 ? first : second;
      expect((await new ApiClient(target.url).post('/api/auth/login', { email: user.email, password: 'wrong one' })).status).toBe(401);
    }
    expect((await new ApiClient(second.url).post('/api/auth/login', { email: user.email, password: 'wrong one' })).status).toBe(429);
  });
});
