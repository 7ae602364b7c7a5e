import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { SessionBody } from '../../contract/users.ts';
import { ApiClient, signUpUser, sameSessionOn } from '../support/client.ts';
import { REDIS_URL } from '../support/database.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Two app instances on one database and one Redis, as behind a load balancer. Runs against the
// machine's Redis; if Redis is not there this suite fails (it is never skipped).
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
});
afterAll(() => redis?.disconnect());
// Instances behind a balancer share Postgres (PGlite is one process's database, so both Vitest
// projects use Postgres here). The per-address auth limit is raised because Redis keeps its
// counters across test runs on this machine.
const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

describe('sessions in Redis', () => {
  test('the session lives in Redis under the pinboard prefix', async () => {
    const { client } = await signUpUser(app.one.url);
    const sid = decodeURIComponent(client.cookies.get('pinboard.sid') ?? '')
      .replace(/^s:/, '')
      .split('.')[0];
    const stored = await redis.get(`pinboard:sess:${sid}`);
    expect(stored).toBeTruthy();
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ userId: expect.any(Number) });
  });

  test('a session (and its CSRF token) made on instance 1 is accepted by instance 2', async () => {
    const { client, user } = await signUpUser(app.one.url);
    const onSecond = sameSessionOn(app.two.url, client);
    expect((await onSecond.get<SessionBody>('/api/auth/')).body.user?.id).toBe(user.id);
    const board = await onSecond.post<Board>('/api/boards/', { name: 'Made via instance 2' });
    expect(board.status).toBe(201);
    expect(board.body.user_id).toBe(user.id);
    expect((await client.get<Board>(`/api/boards/${board.body.id}`)).body.name).toBe('Made via instance 2');
  });

  test('once logout on instance 2 has answered, instance 1 no longer accepts the session (though it had it cached)', async () => {
    for (let round = 0; round < 5; round++) {
      const { client } = await signUpUser(app.one.url);
      expect((await client.get<SessionBody>('/api/auth/')).body.user).not.toBeNull(); // instance 1 now remembers it
      const started = performance.now();
      expect((await sameSessionOn(app.two.url, client).get('/api/auth/logout')).status).toBe(200);
      const took = performance.now() - started;
      // Instance 2 answers only after instance 1 confirmed, through the adapter, that it forgot it.
      expect((await client.get<SessionBody>('/api/auth/')).body.user).toBeNull();
      console.log(`logout on instance 2 answered in ${took.toFixed(1)} ms, instance 1 already forgot the session`);
    }
  });

  test('a slow third instance: logout answers only after it too has confirmed that it forgot the session', async () => {
    // A stand-in for an instance that takes 300 ms to handle the message: it listens and answers on
    // the adapter's channels, as a Socket.IO server with the Redis adapter does.
    const channel = app.two.config.socketChannel;
    const peer = redis.duplicate();
    const order: string[] = [];
    let ending = '';
    peer.on('message', (_channel: string, message: string) => {
      const request = JSON.parse(message) as { type: number; requestId?: string; data?: unknown[] };
      if (request.type !== 6 || request.data?.[0] !== 'session:forget' || !request.requestId) return; // 6: SERVER_SIDE_EMIT
      const forgets = request.data[1];
      setTimeout(() => {
        if (forgets === ending) order.push('slow instance forgot it');
        void redis.publish(`${channel}-response#/#`, JSON.stringify({ type: 6, requestId: request.requestId, data: true }));
      }, 300);
    });
    await peer.subscribe(`${channel}-request#/#`);
    try {
      const { client } = await signUpUser(app.one.url);
      ending =
        decodeURIComponent(client.cookies.get('pinboard.sid') ?? '')
          .replace(/^s:/, '')
          .split('.')[0] ?? '';
      const logout = await sameSessionOn(app.two.url, client).get('/api/auth/logout');
      order.push('logout answered');
      expect(logout.status).toBe(200);
      expect(order).toEqual(['slow instance forgot it', 'logout answered']);
    } finally {
      peer.disconnect();
    }
  });

  test('rate-limit counters are shared through Redis', async () => {
    const { user } = await signUpUser(app.one.url);
    const keys = await redis.keys('pinboard:rl:*');
    expect(keys.length).toBeGreaterThan(0);
    // Failed logins counted on instance 1 and 2 add up for the account (default limit: 10).
    for (let i = 0; i < 10; i++) {
      const target = i % 2 === 0 ? app.one : app.two;
      expect((await new ApiClient(target.url).post('/api/auth/login', { email: user.email, password: 'wrong one' })).status).toBe(401);
    }
    expect((await new ApiClient(app.two.url).post('/api/auth/login', { email: user.email, password: 'wrong one' })).status).toBe(429);
  });
});
