import { describe, expect, test } from 'vitest';
import type { TokenCreated } from '../../contract/tokens.ts';
import type { SessionBody } from '../../contract/users.ts';
import { signUpUser, sameSessionOn } from '../support/client.ts';
import { startServer } from '../support/server.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';
import { TokenClient } from '../support/token-client.ts';

// Two app instances on one database and one Redis, as behind a load balancer: a token revoked on
// one is refused by the other as soon as the revoke has answered, although the other had it cached.
// Runs against the machine's Redis (the instances fail to start without it); never skipped.
const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

describe('tokens across instances', () => {
  test('a token minted on instance 1 works on instance 2', async () => {
    const { client, user } = await signUpUser(app.one.url, 'tokredis');
    const { body } = await client.post<TokenCreated>('/api/tokens', { name: 'anywhere', scope: 'write' });
    const onSecond = new TokenClient(app.two.url, body.secret);
    expect((await onSecond.get<SessionBody>('/api/auth/')).body.user?.id).toBe(user.id);
    expect((await onSecond.post('/api/boards/', { name: 'via instance 2' })).status).toBe(201);
  });

  test('once a revoke on instance 2 has answered, instance 1 refuses the token (though it had it cached)', async () => {
    for (let round = 0; round < 5; round++) {
      const { client } = await signUpUser(app.one.url, 'tokrevoke');
      const { body } = await client.post<TokenCreated>('/api/tokens', { name: `round ${round}`, scope: 'read' });
      const onFirst = new TokenClient(app.one.url, body.secret);
      expect((await onFirst.get('/api/pins/')).status).toBe(200); // instance 1 now remembers it
      expect((await onFirst.get('/api/pins/')).status).toBe(200);
      const sessionOnSecond = sameSessionOn(app.two.url, client);
      const started = performance.now();
      expect((await sessionOnSecond.delete(`/api/tokens/${body.token.id}`)).status).toBe(200);
      const took = performance.now() - started;
      const refused = await onFirst.get('/api/pins/');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      console.log(`revoke on instance 2 answered in ${took.toFixed(1)} ms; instance 1 already refuses the token`);
    }
  });

  test('per-token counters are shared: calls on both instances add up', async () => {
    const limitedEnv = { AUTH_RATE_LIMIT_PER_IP: '100000', API_RATE_LIMIT_PER_TOKEN: '4' };
    const a = await startServer({ db: 'postgres', redis: true, env: limitedEnv });
    const b = await startServer({ db: 'postgres', redis: true, env: limitedEnv, databaseUrl: a.databaseUrl as string });
    try {
      const { client } = await signUpUser(a.url, 'tokcount');
      const { body } = await client.post<TokenCreated>('/api/tokens', { name: 'counted', scope: 'read' });
      const statuses: number[] = [];
      // One at a time, alternating instances; the counters reconcile through Redis in batches, so
      // a 429 comes at the limit or within an instance's small unreconciled share past it.
      for (let i = 0; i < 12; i++) statuses.push((await new TokenClient(i % 2 ? b.url : a.url, body.secret).get('/api/pins/')).status);
      console.log(`per-token limit 4 across two instances: ${statuses.join(' ')}`);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      expect(statuses).toContain(429);
      expect(statuses.lastIndexOf(200)).toBeLessThan(4 + 2);
    } finally {
      await b.stop();
      await a.stop();
    }
  });
});
