import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import type { ApiToken, TokenCreated, TokenList } from '../../contract/tokens.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import { ApiClient, type ApiResponse, signUpUser } from '../support/client.ts';
import { timeUntil } from '../support/eventually.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { TokenClient } from '../support/token-client.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

// Personal access tokens (docs/tokens-and-capture.md), on Postgres and on PGlite.
const server = useTestServer({ seed: { pins: 3 } });

async function mint(client: ApiClient, scope: 'read' | 'write', extra: Record<string, unknown> = {}): Promise<TokenCreated> {
  const created = await client.post<TokenCreated>('/api/tokens', { name: `${scope} token`, scope, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** A user with a token: the session that made it, and a client that holds only the token. */
async function withToken(scope: 'read' | 'write', base = server.url) {
  const signedUp = await signUpUser(base, 'tok');
  const created = await mint(signedUp.client, scope);
  return { ...signedUp, created, token: new TokenClient(base, created.secret) };
}

function expectUnauthorized(response: ApiResponse, message?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(401);
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer( |$)/);
  const body = response.body as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['errors', 'fields', 'message']);
  if (message) expect(body.message).toBe(message);
  expect(response.headers.getSetCookie()).toEqual([]);
}

const pinBody = { title: 'By token', imageUrl: 'https://example.com/token.png', description: 'scripted' };

describe('creating and listing tokens (a signed-in browser session)', () => {
  test('the secret is pb_ + 43 URL-safe characters, shown once; only its sha256 is stored', async () => {
    const { client, user } = await signUpUser(server.url, 'tokmint');
    const created = await client.post<TokenCreated>('/api/tokens', { name: 'laptop script', scope: 'write', expiresInDays: 30 });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { token, secret } = created.body;
    expect(secret).toMatch(/^pb_[A-Za-z0-9_-]{43}$/);
    expect(token).toEqual({ id: expect.any(Number), name: 'laptop script', scope: 'write', createdAt: expect.any(String), expiresAt: expect.any(String), lastUsedAt: null });
    const days = (Date.parse(token.expiresAt ?? '') - Date.parse(token.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 1);
    const { rows } = await sql<Record<string, unknown>>`select * from api_tokens where user_id = ${user.id}`.execute(server.server.database.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(secret.slice(3));

    const second = await mint(client, 'read');
    expect(second.token.expiresAt).toBeNull();
    const list = await client.get<TokenList>('/api/tokens');
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((t) => t.id)).toEqual([second.token.id, token.id]);
    expect(JSON.stringify(list.body)).not.toMatch(/pb_|secret/);
  });

  test('each input rule has its message, and nothing is created', async () => {
    const { client } = await signUpUser(server.url, 'tokbad');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ scope: 'read' }, 'name', 'Token name is required.'],
      [{ name: '   ', scope: 'read' }, 'name', 'Token name is required.'],
      [{ name: 'x'.repeat(101), scope: 'read' }, 'name', 'Name must be at most 100 characters.'],
      [{ name: 'n' }, 'scope', 'Scope must be read or write.'],
      [{ name: 'n', scope: 'admin' }, 'scope', 'Scope must be read or write.'],
      [{ name: 'n', scope: 'read', expiresInDays: 0 }, 'expiresInDays', 'expiresInDays must be a whole number from 1 to 3650.'],
      [{ name: 'n', scope: 'read', expiresInDays: 1.5 }, 'expiresInDays', 'expiresInDays must be a whole number from 1 to 3650.'],
      [{ name: 'n', scope: 'read', expiresInDays: 3651 }, 'expiresInDays', 'expiresInDays must be a whole number from 1 to 3650.'],
      [{ name: 'n', scope: 'read', expiresInDays: '7' }, 'expiresInDays', 'expiresInDays must be a whole number from 1 to 3650.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await client.post<ErrorBody>('/api/tokens', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.fields[field], JSON.stringify(body)).toBe(message);
    }
    expect((await client.get<TokenList>('/api/tokens')).body.tokens).toEqual([]);
  });

  test('anonymous visitors get 401; another user cannot revoke yours (404, as for no such token)', async () => {
    const anonymous = new ApiClient(server.url);
    expect((await anonymous.get('/api/tokens')).status).toBe(401);
    expect((await anonymous.post('/api/tokens', { name: 'n', scope: 'read' })).status).toBe(401);
    const alice = await withToken('write');
    const bob = await signUpUser(server.url, 'tokbob');
    expect((await bob.client.delete(`/api/tokens/${alice.created.token.id}`)).status).toBe(404);
    expect((await bob.client.delete('/api/tokens/abc')).status).toBe(400);
    expect((await alice.token.get('/api/auth/')).status).toBe(200);
  });

  test(`a user holds at most 100 tokens (409), and may mint again after revoking one`, async () => {
    const { client } = await signUpUser(server.url, 'tokcap');
    const made: ApiToken[] = [];
    for (let i = 0; i < 100; i++) made.push((await mint(client, 'read')).token);
    const refused = await client.post<ErrorBody>('/api/tokens', { name: 'one too many', scope: 'read' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('You can have at most 100 tokens. Revoke one first.');
    expect((await client.delete(`/api/tokens/${made[0]?.id}`)).status).toBe(200);
    expect((await client.post('/api/tokens', { name: 'room again', scope: 'read' })).status).toBe(201);
  });
});

describe('calling the API with a token', () => {
  test('a write token acts as its user with no cookie and no anti-forgery header, and no cookie is set', async () => {
    const { token, user } = await withToken('write');
    const session = await token.get<SessionBody>('/api/auth/');
    expect(session.body.user).toEqual(user);
    const pin = await token.post<Pin>('/api/pins/', pinBody);
    expect(pin.status).toBe(201);
    expect(pin.body).toMatchObject({ title: 'By token', user_id: user.id });
    const board = await token.post<{ id: number }>('/api/boards/', { name: 'Token board' });
    expect(board.status).toBe(201);
    expect((await token.post(`/api/boards/${board.body.id}/pins`, { pin_id: pin.body.id })).status).toBe(201);
    expect((await token.post('/api/favorites/', { pin_id: pin.body.id })).status).toBe(201);
    expect((await token.put(`/api/pins/${pin.body.id}`, { title: 'Edited by token' })).status).toBe(200);
    for (const response of [session, pin, board]) expect(response.headers.getSetCookie()).toEqual([]);
    // An upload is a write like any other (the browser extension sends the bytes it has).
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await jpeg(40, 30))], { type: 'image/jpeg' }), 'a.jpg');
    const upload = await token.request<{ image: { url: string } }>('POST', '/api/images/', { form });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(upload.headers.getSetCookie()).toEqual([]);
    expect((await token.delete(`/api/pins/${pin.body.id}`)).status).toBe(200);
  });

  test('a read token reads (GET, HEAD) and is refused every write with 403', async () => {
    const { token, client } = await withToken('read');
    const own = await client.post<Pin>('/api/pins/', pinBody);
    expect((await token.get('/api/boards/')).status).toBe(200);
    expect((await token.request('HEAD', '/api/pins/')).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/pins/', pinBody],
      ['PUT', `/api/pins/${own.body.id}`, { title: 'nope' }],
      ['DELETE', `/api/pins/${own.body.id}`, undefined],
      ['POST', '/api/boards/', { name: 'nope' }],
      ['POST', '/api/favorites/', { pin_id: own.body.id }],
    ];
    for (const [method, path, json] of writes) {
      const response = await token.request<ErrorBody>(method, path, { json });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.message).toBe('This token is read-only: it can only read (GET).');
    }
    expect((await client.get<Pin>(`/api/pins/${own.body.id}`)).body).toMatchObject({ title: 'By token', likes_count: 0 });
  });

  test('no token manages tokens or the session, whatever its scope (403)', async () => {
    const { token, client } = await withToken('write');
    const reader = new TokenClient(server.url, (await mint(client, 'read')).secret);
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/api/tokens', undefined],
      ['POST', '/api/tokens', { name: 'minted by a token', scope: 'write' }],
      ['DELETE', '/api/tokens/1', undefined],
      ['POST', '/api/auth/login', { email: 'demo@pinboard.test', password: 'demo-password' }],
      ['POST', '/api/auth/signup', { email: 'tok@example.test', username: 'tokensignup', password: 'long enough password' }],
      ['POST', '/api/auth/demo', undefined],
      ['GET', '/api/auth/logout', undefined],
    ];
    for (const [method, path, json] of calls) {
      const response = await token.request<ErrorBody>(method, path, { json });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.message).toBe('A token cannot do this: sign in with the browser instead.');
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect((await reader.get('/api/tokens')).status).toBe(403);
    expect((await reader.get('/api/auth/logout')).status).toBe(403);
    expect((await client.get<TokenList>('/api/tokens')).body.tokens).toHaveLength(2);
  });

  test('missing, malformed, unknown, expired and revoked tokens are 401 with WWW-Authenticate: Bearer, on any call', async () => {
    const { token, client, created } = await withToken('write');
    const raw = new TokenClient(server.url, '');
    expectUnauthorized(await raw.request('GET', '/api/pins/', { authorization: 'Bearer' }), 'Send a personal access token as "Authorization: Bearer pb_…".');
    expectUnauthorized(await raw.request('GET', '/api/pins/', { authorization: 'Bearer    ' }));
    expectUnauthorized(await raw.request('GET', '/api/auth/', { authorization: 'Bearer not-a-token' }));
    expectUnauthorized(await raw.request('GET', '/api/auth/', { authorization: `Bearer ${created.secret} extra` }));
    expectUnauthorized(await raw.request('GET', '/api/auth/', { authorization: `Bearer ${created.secret}x` }));
    const unknown = `pb_${'A'.repeat(43)}`;
    expectUnauthorized(await raw.request('POST', '/api/pins/', { authorization: `Bearer ${unknown}`, json: pinBody }), 'This token is not valid: it was revoked, or never existed.');
    // The scheme is case-insensitive.
    expect((await raw.request<SessionBody>('GET', '/api/auth/', { authorization: `bearer ${created.secret}` })).body.user).not.toBeNull();

    const expiring = await mint(client, 'write', { expiresInDays: 1 });
    await server.server.database.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.token.id)
      .execute();
    const soon = new TokenClient(server.url, expiring.secret);
    expectUnauthorized(await soon.get('/api/auth/'), 'This token has expired.');

    expect((await token.get('/api/auth/')).status).toBe(200);
    const revoked = await client.delete<{ message: string; id: number }>(`/api/tokens/${created.token.id}`);
    expect(revoked.body).toEqual({ message: 'Token revoked', id: created.token.id });
    expectUnauthorized(await token.get('/api/auth/'), 'This token is not valid: it was revoked, or never existed.');
    expectUnauthorized(await token.post('/api/pins/', pinBody));
  });

  test("a token's writes are accepted from a browser extension's origin (no cookie, so no cross-site risk)", async () => {
    const { token, user } = await withToken('write');
    const pin = await token.request<Pin>('POST', '/api/pins/', { json: pinBody, headers: { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' } });
    expect(pin.status).toBe(201);
    expect(pin.body.user_id).toBe(user.id);
    // The same origin with a cookie session is refused, as before.
    const { client } = await signUpUser(server.url, 'tokorigin');
    const cookieWrite = await client.request('POST', '/api/pins/', { json: pinBody, headers: { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' } });
    expect(cookieWrite.status).toBe(403);
  });

  test('an Authorization scheme other than Bearer is left alone: the cookies decide', async () => {
    const { client, user } = await signUpUser(server.url, 'tokbasic');
    const session = await client.request<SessionBody>('GET', '/api/auth/', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(session.status).toBe(200);
    expect(session.body.user?.id).toBe(user.id);
  });

  test('a token wins over a cookie session sent with it, and the answer sets no cookie', async () => {
    const alice = await withToken('write');
    const bob = await signUpUser(server.url, 'tokcookie');
    const cookie = [...bob.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const mixed = await alice.token.request<Pin>('POST', '/api/pins/', { json: pinBody, headers: { cookie } });
    expect(mixed.status).toBe(201);
    expect(mixed.body.user_id).toBe(alice.user.id);
    expect(mixed.headers.getSetCookie()).toEqual([]);
  });
});

describe('per-token limits and last use', () => {
  test("calls beyond API_RATE_LIMIT_PER_TOKEN get 429 with Retry-After; the user's other token is counted apart", async () => {
    // A window longer than the test: on a loaded machine five calls can outlast the default 10 s,
    // and a new window would let the fifth through.
    await withTestServer({ env: { API_RATE_LIMIT_PER_TOKEN: '3', API_RATE_LIMIT_WINDOW_SECONDS: '3600' } }, async (limited) => {
      const { token, client } = await withToken('read', limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await token.get('/api/pins/')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await token.get<ErrorBody>('/api/pins/');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.message).toBe('Too many requests. Please wait and try again.');
      const other = new TokenClient(limited.url, (await mint(client, 'read')).secret);
      expect((await other.get('/api/pins/')).status).toBe(200);
      // The browser session of the same user is not limited by its tokens.
      expect((await client.get('/api/pins/')).status).toBe(200);
    });
  });

  test('lastUsedAt is written in batches, not by the calls themselves', async () => {
    await withTestServer({ env: { TOKEN_LAST_USED_FLUSH_SECONDS: '3600' } }, async (lazy) => {
      const { token, client, created } = await withToken('read', lazy.url);
      for (let i = 0; i < 10; i++) expect((await token.get('/api/pins/')).status).toBe(200);
      const row = await lazy.server.database.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', created.token.id).executeTakeFirstOrThrow();
      expect(row.last_used_at).toBeNull();
      expect((await client.get<TokenList>('/api/tokens')).body.tokens[0]?.lastUsedAt).toBeNull();
    });
    await withTestServer({ env: { TOKEN_LAST_USED_FLUSH_SECONDS: '0.2' } }, async (eager) => {
      const { token, client } = await withToken('read', eager.url);
      const before = Date.now();
      expect((await token.get('/api/pins/')).status).toBe(200);
      let lastUsed: string | null | undefined = null;
      const took = await timeUntil(20_000, async () => {
        lastUsed = (await client.get<TokenList>('/api/tokens')).body.tokens[0]?.lastUsedAt;
        return typeof lastUsed === 'string';
      });
      expect(took).toBeDefined();
      expect(Date.parse(lastUsed ?? '')).toBeGreaterThanOrEqual(before - 1000);
      console.log(`lastUsedAt written ${took?.toFixed(0)} ms after the call (flush every 200 ms)`);
    });
  });
});

describe('the user of a token', () => {
  test("pins created with a token are the user's, in their list like any other", async () => {
    const { token, client, user } = await withToken('write');
    const pin = await token.post<Pin>('/api/pins/', pinBody);
    const mine = await client.get<{ pins: Pin[] }>(`/api/pins/?userId=${user.id}`);
    expect(mine.body.pins.map((p) => p.id)).toEqual([pin.body.id]);
    const me = await token.get<{ user: User }>('/api/auth/');
    expect(me.body.user.id).toBe(user.id);
  });
});
