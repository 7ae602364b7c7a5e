import { request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { PinList } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

const server = useTestServer();

const pinCount = async () => (await new ApiClient(server.url).get<PinList>('/api/pins/')).body.pins.length;

describe('CSRF double submit', () => {
  test('the HTML page and every API GET hand out a readable XSRF-TOKEN cookie', async () => {
    for (const path of ['/', '/pins/3/edit', '/api/pins/']) {
      const c = new ApiClient(server.url);
      await c.get(path);
      expect(c.csrfToken, path).toBeTruthy();
      const res = await fetch(server.url + path);
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith('XSRF-TOKEN='));
      expect(cookie).toBeDefined();
      expect(cookie).not.toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    }
  });

  test('a non-GET without the header, or with a wrong one, is 403 and changes nothing', async () => {
    const { client } = await signUpUser(server.url);
    const before = await pinCount();
    const body = { title: 'csrf', imageUrl: 'https://a.test/x.png' };
    const missing = await client.request<ErrorBody>('POST', '/api/pins/', { json: body, csrf: false });
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe('Invalid or missing CSRF token. Reload the page and try again.');
    const wrong = await client.request<ErrorBody>('POST', '/api/pins/', { json: body, csrf: false, headers: { 'x-xsrf-token': 'abc.def' } });
    expect(wrong.status).toBe(403);
    // The right value in the header but a forged cookie does not pass either.
    const forged = new ApiClient(server.url);
    for (const [k, v] of client.cookies) forged.cookies.set(k, v);
    forged.cookies.set('XSRF-TOKEN', 'f'.repeat(64) + '.' + 'e'.repeat(64));
    const forgedRes = await forged.request('POST', '/api/pins/', { json: body, csrf: false, headers: { 'x-xsrf-token': 'f'.repeat(64) + '.' + 'e'.repeat(64) } });
    expect(forgedRes.status).toBe(403);
    expect(await pinCount()).toBe(before);
    expect((await client.post('/api/pins/', body)).status).toBe(201);
  });

  test('a token issued to one visitor does not work for another', async () => {
    const alice = await signUpUser(server.url);
    const bob = await signUpUser(server.url);
    const res = await bob.client.request('POST', '/api/boards/', {
      json: { name: 'x' },
      csrf: false,
      headers: { 'x-xsrf-token': alice.client.csrfToken ?? '' },
    });
    expect(res.status).toBe(403);
  });

  test('login rotates the token: the pre-login token is refused afterwards', async () => {
    const { user, password } = await signUpUser(server.url);
    const c = new ApiClient(server.url);
    await c.get('/api/auth/');
    const anonymousToken = c.csrfToken ?? '';
    await c.post('/api/auth/login', { email: user.email, password });
    expect(c.csrfToken).not.toBe(anonymousToken);
    const stale = await c.request('POST', '/api/boards/', { json: { name: 'x' }, csrf: false, headers: { 'x-xsrf-token': anonymousToken } });
    expect(stale.status).toBe(403);
    expect((await c.post('/api/boards/', { name: 'x' })).status).toBe(201);
  });
});

describe('Origin check on state-changing requests (docs/api.md, anti-forgery)', () => {
  const pin = { title: 'origin', imageUrl: 'https://a.test/x.png' };
  const host = () => new URL(server.url).host;

  test('a browser request from another site is refused even with a valid token, and nothing is stored', async () => {
    const { client } = await signUpUser(server.url);
    const before = await pinCount();
    const res = await client.request<ErrorBody>('POST', '/api/pins/', { json: pin, headers: { origin: 'http://evil.test' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Requests from other sites are not allowed.');
    const garbage = await client.request<ErrorBody>('POST', '/api/pins/', { json: pin, headers: { origin: 'not a url' } });
    expect(garbage.status).toBe(403);
    expect(await pinCount()).toBe(before);
  });

  test('our own origin (matching Host) and requests without Origin (scripts) pass', async () => {
    const { client } = await signUpUser(server.url);
    const own = await client.request('POST', '/api/pins/', { json: pin, headers: { origin: `http://${host()}` } });
    expect(own.status).toBe(201);
    expect((await client.post('/api/pins/', pin)).status).toBe(201);
  });

  test('X-Forwarded-Host is believed only from a trusted proxy (TRUST_PROXY)', async () => {
    const forwarded = { origin: 'http://pins.example:8443', 'x-forwarded-host': 'pins.example:8443' };
    const direct = await signUpUser(server.url);
    expect((await direct.client.request('POST', '/api/pins/', { json: pin, headers: forwarded })).status).toBe(403);

    await withTestServer({ env: { TRUST_PROXY: 'loopback' } }, async (behindProxy) => {
      const { client } = await signUpUser(behindProxy.url);
      expect((await client.request('POST', '/api/pins/', { json: pin, headers: forwarded })).status).toBe(201);
      const spoofed = { origin: 'http://evil.test', 'x-forwarded-host': 'pins.example:8443' };
      expect((await client.request('POST', '/api/pins/', { json: pin, headers: spoofed })).status).toBe(403);
    });
  });

  test('with PUBLIC_ORIGIN only the listed origins pass', async () => {
    await withTestServer({ env: { PUBLIC_ORIGIN: 'https://pins.example' } }, async (pinned) => {
      const { client } = await signUpUser(pinned.url);
      const ownHost = `http://${new URL(pinned.url).host}`;
      expect((await client.request('POST', '/api/pins/', { json: pin, headers: { origin: ownHost } })).status).toBe(403);
      expect((await client.request('POST', '/api/pins/', { json: pin, headers: { origin: 'https://pins.example' } })).status).toBe(201);
    });
  });
});

/**
 * GET /api/auth/logout with exactly these headers and the client's cookies. Not through fetch:
 * Node's fetch sends `Sec-Fetch-Mode: cors` whatever it is given, as a browser's fetch does.
 */
function logoutWith(client: ApiClient, headers: Record<string, string>): Promise<number> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}/api/auth/logout`, { headers: { cookie, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('clients written for the origin app (docs/tokens-and-capture.md)', () => {
  const pin = { title: 'alias', imageUrl: 'https://a.test/x.png' };

  test('the token is accepted in an XSRF-Token header too, validated the same way', async () => {
    const { client } = await signUpUser(server.url);
    const token = client.csrfToken ?? '';
    const aliased = await client.request('POST', '/api/pins/', { json: pin, csrf: false, headers: { 'XSRF-Token': token } });
    expect(aliased.status).toBe(201);
    const before = await pinCount();
    const wrong = await client.request<ErrorBody>('POST', '/api/pins/', { json: pin, csrf: false, headers: { 'XSRF-Token': 'abc.def' } });
    expect(wrong.status).toBe(403);
    const other = await signUpUser(server.url);
    const foreign = await client.request('POST', '/api/pins/', { json: pin, csrf: false, headers: { 'XSRF-Token': other.client.csrfToken ?? '' } });
    expect(foreign.status).toBe(403);
    // Under either name, a token still needs its cookie.
    const noCookie = new ApiClient(server.url);
    for (const [k, v] of client.cookies) if (k !== 'XSRF-TOKEN') noCookie.cookies.set(k, v);
    expect((await noCookie.request('POST', '/api/pins/', { json: pin, csrf: false, headers: { 'XSRF-Token': token } })).status).toBe(403);
    expect(await pinCount()).toBe(before);
  });

  test("a same-origin script's plain GET /api/auth/logout signs out, as Fetch Metadata reports it", async () => {
    for (const mode of ['cors', 'same-origin']) {
      const { client } = await signUpUser(server.url);
      expect(await logoutWith(client, { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': mode, 'sec-fetch-dest': 'empty' }), mode).toBe(200);
      expect((await client.get<{ user: unknown }>('/api/auth/')).body.user).toBeNull();
    }
  });

  test('navigations, images and requests from other sites still cannot sign anyone out', async () => {
    const { client, user } = await signUpUser(server.url);
    const attempts: Array<Record<string, string>> = [
      // A link followed or a pin's page navigating there.
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      // <img src="/api/auth/logout"> on one of our pages (an image URL cannot name it, but still).
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      // Another site's script, image or link.
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      // A script that claims our origin in Fetch Metadata but whose Origin says another site.
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', origin: 'https://evil.test' },
      // No Fetch Metadata at all (an old browser, a script): the header is needed, as before.
      {},
    ];
    for (const headers of attempts) {
      expect(await logoutWith(client, headers), JSON.stringify(headers)).toBe(403);
      expect((await client.get<{ user: { id: number } | null }>('/api/auth/')).body.user?.id).toBe(user.id);
    }
  });
});
