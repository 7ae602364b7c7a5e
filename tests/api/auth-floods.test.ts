// Floods of sign-ins must not hurt the people already here: password hashing takes a bounded share
// of the thread pool, and the embedded session store never makes room by signing someone out.
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { SessionBody } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { withTestServer } from '../support/use-test-server.ts';

async function whoIs(client: ApiClient): Promise<number | null> {
  return (await client.get<SessionBody>('/api/auth/')).body.user?.id ?? null;
}

describe('the embedded session store under a flood of sign-ins', () => {
  test('when full, a new sign-in is refused with 503 and everyone already signed in stays signed in', async () => {
    await withTestServer({ env: { SESSION_MEMORY_MAX: '4', SESSIONS_PER_USER: '2' } }, async (server) => {
      const people = await Promise.all([1, 2, 3, 4].map(() => signUpUser(server.url, 'resident')));
      const refused = await new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: people[0]?.user.email, password: people[0]?.password });
      expect(refused.status).toBe(503);
      expect(refused.body.message).toBe('Too many people are signed in right now. Please try again later.');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const person of people) expect(await whoIs(person.client)).toBe(person.user.id);
      // Signing out frees a place for the next person.
      expect((await people[3]!.client.get('/api/auth/logout')).status).toBe(200);
      const next = new ApiClient(server.url);
      expect((await next.post('/api/auth/login', { email: people[3]?.user.email, password: people[3]?.password })).status).toBe(200);
      expect(await whoIs(next)).toBe(people[3]?.user.id);
    });
  });

  test('one user opening sessions again and again ends only their own oldest ones', async () => {
    await withTestServer({ env: { SESSION_MEMORY_MAX: '10', SESSIONS_PER_USER: '2' } }, async (server) => {
      const bystander = await signUpUser(server.url, 'bystander');
      const { client: first, user, password } = await signUpUser(server.url, 'repeat');
      const later = [new ApiClient(server.url), new ApiClient(server.url)];
      for (const client of later) expect((await client.post('/api/auth/login', { email: user.email, password })).status).toBe(200);
      expect(await whoIs(first)).toBeNull();
      for (const client of later) expect(await whoIs(client)).toBe(user.id);
      expect(await whoIs(bystander.client)).toBe(bystander.user.id);
    });
  });
});

describe('the embedded session store, per client address', () => {
  function from(address: string, url: string) {
    const client = new ApiClient(url);
    return {
      client,
      login: (email: string, password: string) => client.request<ErrorBody>('POST', '/api/auth/login', { json: { email, password }, headers: { 'x-forwarded-for': address } }),
      signup: (email: string, username: string, password: string) =>
        client.request<ErrorBody>('POST', '/api/auth/signup', { json: { email, username, password }, headers: { 'x-forwarded-for': address } }),
    };
  }

  test('one address holds at most SESSIONS_PER_ADDRESS sessions: the next sign-in from it gets 429 with the error shape, other addresses sign in', async () => {
    await withTestServer({ env: { TRUST_PROXY: 'loopback', SESSION_MEMORY_MAX: '50', SESSIONS_PER_ADDRESS: '3' } }, async (server) => {
      const { user, password } = await signUpUser(server.url, 'crowded');
      const held = [1, 2, 3].map(() => from('203.0.113.50', server.url));
      for (const visitor of held) expect((await visitor.login(user.email, password)).status).toBe(200);
      const refused = await from('203.0.113.50', server.url).login(user.email, password);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        message: 'Too many sessions are signed in from your network. Sign out elsewhere and try again.',
        errors: ['Too many sessions are signed in from your network. Sign out elsewhere and try again.'],
        fields: {},
      });
      // Those signed in stay signed in; another address is not affected.
      for (const visitor of held) expect(await whoIs(visitor.client)).toBe(user.id);
      const elsewhere = from('198.51.100.50', server.url);
      expect((await elsewhere.login(user.email, password)).status).toBe(200);
      expect(await whoIs(elsewhere.client)).toBe(user.id);
      // Signing out gives the place back.
      expect((await held[0]!.client.get('/api/auth/logout')).status).toBe(200);
      expect((await from('203.0.113.50', server.url).login(user.email, password)).status).toBe(200);
    });
  });

  test('a sign-up the full store cannot take creates no account, and every refusal is answered in the error shape', { timeout: 120_000 }, async () => {
    await withTestServer({ env: { TRUST_PROXY: 'loopback', SESSION_MEMORY_MAX: '3', SESSIONS_PER_ADDRESS: '3' } }, async (server) => {
      const residents = await Promise.all([1, 2, 3].map(() => signUpUser(server.url, 'full')));
      const signups = [];
      for (let i = 0; i < 10; i++) signups.push(await from(`192.0.2.${i + 1}`, server.url).signup(`late${i}@example.test`, `late${i}`, 'a good password'));
      // Refused sign-ins at once: a dropped connection (the failed save retried as the answer ends,
      // its error sent after the answer began) would make fetch throw here.
      const [resident] = residents;
      const signins = await Promise.all(Array.from({ length: 40 }, (_, i) => from(`198.51.100.${i + 1}`, server.url).login(resident!.user.email, resident!.password)));
      for (const refused of [...signups, ...signins]) {
        expect(refused.status).toBe(503);
        expect(refused.body).toEqual({
          message: 'Too many people are signed in right now. Please try again later.',
          errors: ['Too many people are signed in right now. Please try again later.'],
          fields: {},
        });
        expect(refused.headers.get('set-cookie') ?? '').not.toContain('pinboard.sid=');
      }
      // No account was left behind: once there is room, the same email and username sign up.
      expect((await residents[0]!.client.get('/api/auth/logout')).status).toBe(200);
      const later = from('192.0.2.1', server.url);
      const created = await later.signup('late0@example.test', 'late0', 'a good password');
      expect(created.status).toBe(201);
      expect(await whoIs(later.client)).toBe((created.body as unknown as { id: number }).id);
      // Nor does any other refused sign-up's account exist (with room again, its sign-in is a plain 401).
      expect((await later.client.get('/api/auth/logout')).status).toBe(200);
      expect((await from('192.0.2.99', server.url).login('late1@example.test', 'a good password')).status).toBe(401);
    });
  });
});

test('concurrent password hashing is capped: beyond its queue a sign-in gets 503, never a 500, and the server keeps serving', async () => {
  await withTestServer({ env: { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2' } }, async (server) => {
    const attempts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: `nobody${i}@example.test`, password: 'a wrong password' })),
    );
    const statuses = attempts.map((res) => res.status);
    const busy = attempts.filter((res) => res.status === 503);
    console.log(`30 concurrent sign-ins with unknown emails: ${statuses.filter((s) => s === 401).length} answered 401, ${busy.length} refused 503`);
    expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.body.message).toBe('The server is busy. Please try again in a moment.');
    // The queue drains: a sign-in afterwards is answered normally.
    expect((await signUpUser(server.url, 'afterflood')).user.id).toBeGreaterThan(0);
  });
});
