import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

const server = useTestServer({ seed: { pins: 12 } });

const client = () => new ApiClient(server.url);
let n = 0;
const unique = (prefix: string) => `${prefix}${Date.now() % 1e7}${++n}`;

describe('session check GET /api/auth/', () => {
  test('anonymous → {user: null} and an XSRF-TOKEN cookie', async () => {
    const c = client();
    const res = await c.get<SessionBody>('/api/auth/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: null, site: { visibility: 'public', signups: 'open' } });
    expect(c.csrfToken).toMatch(/^[0-9a-f]{64}\.[0-9a-f]{64}$/);
  });

  test('signed in → {user} with id, username, email', async () => {
    const { client: c, user } = await signUpUser(server.url);
    const res = await c.get<SessionBody>('/api/auth/');
    expect(res.body.user).toEqual(user);
  });
});

describe('signup', () => {
  test('creates the account, signs in, returns the user without secrets', async () => {
    const c = client();
    const name = unique('alice');
    const res = await c.post<User>('/api/auth/signup', {
      email: `  ${name.toUpperCase()}@Example.TEST `,
      username: name,
      password: 'long enough password',
      firstName: 'Alice',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), username: name, email: `${name}@example.test`, firstName: 'Alice' });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    expect((await c.get<SessionBody>('/api/auth/')).body.user?.id).toBe(res.body.id);
    const row = await server.server.database.db.selectFrom('users').select('password_hash').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  test('each field rule has its message', async () => {
    const res = await client().post<ErrorBody>('/api/auth/signup', {});
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      email: 'Email is required.',
      username: 'Username is required.',
      password: 'Password is required.',
    });
    const bad = await client().post<ErrorBody>('/api/auth/signup', { email: 'not-an-email', username: 'ab', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({
      email: 'Email must be a valid email address.',
      username: 'Username must be between 3 and 40 characters.',
      password: 'Password must be at least 8 characters.',
    });
    const long = await client().post<ErrorBody>('/api/auth/signup', { email: 'a@b.test', username: 'x'.repeat(41), password: 'longenough' });
    expect(long.body.fields.username).toBe('Username must be between 3 and 40 characters.');
  });

  test('taken email and username → 409 with both messages in fields (case-insensitive)', async () => {
    const { user } = await signUpUser(server.url);
    const res = await client().post<ErrorBody>('/api/auth/signup', {
      email: user.email.toUpperCase(),
      username: user.username.toUpperCase(),
      password: 'another password',
    });
    expect(res.status).toBe(409);
    expect(res.body.fields).toEqual({ email: 'Email address is already in use.', username: 'Username is already in use.' });
    expect(res.body.errors).toHaveLength(2);
  });
});

describe('login and logout', () => {
  test('demo login works with the documented credentials', async () => {
    const c = client();
    const res = await c.post<User>('/api/auth/login', { email: 'demo@pinboard.test', password: 'demo-password' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'demo', email: 'demo@pinboard.test', firstName: 'Demo' });
  });

  test('login regenerates the session id and rotates the CSRF token', async () => {
    const { user, password } = await signUpUser(server.url);
    const c = client();
    await c.get('/api/auth/');
    const before = { token: c.csrfToken };
    const res = await c.post<User>('/api/auth/login', { email: user.email, password });
    expect(res.status).toBe(200);
    const sid = c.cookies.get('pinboard.sid');
    expect(sid).toBeDefined();
    expect(c.csrfToken).not.toBe(before.token);
    // Logging in again issues yet another session id (no fixation).
    await c.post('/api/auth/login', { email: user.email, password });
    expect(c.cookies.get('pinboard.sid')).not.toBe(sid);
  });

  test('wrong password and unknown email give the same 401 credential error', async () => {
    const { user } = await signUpUser(server.url);
    const wrong = await client().post<ErrorBody>('/api/auth/login', { email: user.email, password: 'wrong password' });
    const unknown = await client().post<ErrorBody>('/api/auth/login', { email: 'nobody@example.test', password: 'whatever1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.fields).toEqual({ credential: 'The provided credentials were invalid.' });
  });

  test('missing fields → 400 with email and password messages', async () => {
    const res = await client().post<ErrorBody>('/api/auth/login', { email: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ email: 'Email is required.', password: 'Password is required.' });
  });

  test('logout ends the session: later calls are anonymous, old cookie is useless', async () => {
    const { client: c } = await signUpUser(server.url);
    const oldCookie = c.cookies.get('pinboard.sid');
    const res = await c.get<{ message: string }>('/api/auth/logout');
    expect(res.status).toBe(200);
    expect((await c.get<SessionBody>('/api/auth/')).body.user).toBeNull();
    const replay = client();
    replay.cookies.set('pinboard.sid', oldCookie ?? '');
    expect((await replay.get<SessionBody>('/api/auth/')).body.user).toBeNull();
    expect((await replay.post('/api/pins/', { title: 't', imageUrl: 'https://example.com/x.png' })).status).toBe(401);
  });

  test('logout needs the anti-forgery header: an <img>, a link or another site cannot sign anyone out', async () => {
    const { client: c, user } = await signUpUser(server.url);
    const plain = await c.request<ErrorBody>('GET', '/api/auth/logout', { csrf: false });
    expect(plain.status).toBe(403);
    expect(plain.body.message).toBe('Invalid or missing CSRF token. Reload the page and try again.');
    const forged = await c.request<ErrorBody>('GET', '/api/auth/logout', { csrf: false, headers: { 'x-xsrf-token': 'forged.token' } });
    expect(forged.status).toBe(403);
    const crossSite = await c.request<ErrorBody>('GET', '/api/auth/logout', { headers: { origin: 'https://evil.test' } });
    expect(crossSite.status).toBe(403);
    expect((await c.get<SessionBody>('/api/auth/')).body.user?.id).toBe(user.id);
    expect((await c.get('/api/auth/logout')).status).toBe(200);
    expect((await c.get<SessionBody>('/api/auth/')).body.user).toBeNull();
  });
});

describe('sign-in and sign-up errors as a flat object of field messages (docs/tokens-and-capture.md)', () => {
  test('every field message of a login or signup error below 500 is also at the top level', async () => {
    const { user } = await signUpUser(server.url);
    const cases: Array<[string, Record<string, unknown>, number, Record<string, string>]> = [
      ['/api/auth/login', { email: '', password: '' }, 400, { email: 'Email is required.', password: 'Password is required.' }],
      ['/api/auth/login', { email: user.email, password: 'wrong password' }, 401, { credential: 'The provided credentials were invalid.' }],
      ['/api/auth/signup', {}, 400, { email: 'Email is required.', username: 'Username is required.', password: 'Password is required.' }],
      [
        '/api/auth/signup',
        { email: user.email, username: user.username, password: 'long enough password' },
        409,
        { email: 'Email address is already in use.', username: 'Username is already in use.' },
      ],
    ];
    for (const [path, body, status, fields] of cases) {
      const res = await client().post<ErrorBody & Record<string, unknown>>(path, body);
      expect(res.status, path).toBe(status);
      expect(res.body.fields).toEqual(fields);
      expect(res.body).toMatchObject(fields);
      // Only the field keys are lifted: the shape stays the shape.
      expect(Object.keys(res.body).sort()).toEqual([...Object.keys(fields), 'errors', 'fields', 'message'].sort());
    }
  });

  test('other routes keep the plain shape', async () => {
    const { client: c } = await signUpUser(server.url);
    const res = await c.post<ErrorBody>('/api/pins/', {});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['errors', 'fields', 'message']);
  });
});

describe('per-address auth limit', () => {
  test('sign-in and sign-up attempts beyond AUTH_RATE_LIMIT_PER_IP → 429 with Retry-After and the error shape', async () => {
    await withTestServer({ env: { AUTH_RATE_LIMIT_PER_IP: '5' } }, async (limited) => {
      const c = new ApiClient(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await c.post('/api/auth/login', { email: `nobody${i}@example.test`, password: 'wrong password' })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const res = await c.post<ErrorBody>('/api/auth/signup', { email: 'late@example.test', username: 'late_user', password: 'long enough password' });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.body).toEqual({ message: 'Too many requests. Please wait and try again.', errors: ['Too many requests. Please wait and try again.'], fields: {} });
      // The session check (every page load), logout and other API calls are not attempts: a shared
      // address that used up its attempts still sees who is signed in.
      for (let i = 0; i < 20; i++) expect((await c.get('/api/auth/')).status).toBe(200);
      expect((await c.get('/api/pins/')).status).toBe(200);
    });
  });
});
