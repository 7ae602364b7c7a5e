// Cached public reads are answered before the session and anti-forgery middleware once the
// instance knows the visitor's token (backend/http/public-reads.ts). What a visitor sees must not
// change: the same answers, no cookie handed out again, a signed-in visitor's token still good for
// their writes, a logged-out visitor's old cookies still answered with a fresh token, the API's
// limit per address still counted, and a bearer token still judged.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Comment } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { newPin } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();
let pin: Pin;

beforeAll(async () => {
  const { client } = await signUpUser(server.url, 'reads');
  pin = await newPin(client, 'Read me');
});

const setCookies = (res: { headers: Headers }) => res.headers.getSetCookie().map((line) => line.split('=')[0]);

describe('a browser that keeps its cookies', () => {
  test('anonymous: after its first answer, the same pin and pages with no cookie set again', async () => {
    const visitor = new ApiClient(server.url);
    const first = await visitor.get<Pin>(`/api/pins/${pin.id}`);
    expect(setCookies(first).sort()).toEqual(['XSRF-TOKEN', 'pinboard.aid']);
    for (const path of [`/api/pins/${pin.id}`, '/api/pins/', `/api/comments/pins/${pin.id}/comments`, `/api/pins/${pin.id}`]) {
      const res = await visitor.get(path);
      expect(res.status, path).toBe(200);
      expect(setCookies(res), path).toEqual([]);
    }
    expect((await visitor.get<Pin>(`/api/pins/${pin.id}`)).body).toEqual(first.body);
  });

  test('signed in: reads between writes leave the token good for the writes', async () => {
    const { client } = await signUpUser(server.url, 'reader');
    for (let i = 0; i < 3; i++) {
      expect((await client.get(`/api/pins/${pin.id}`)).status).toBe(200);
      expect((await client.get(`/api/comments/pins/${pin.id}/comments`)).status).toBe(200);
    }
    const comment = await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'Read and liked' });
    expect(comment.status).toBe(201);
    const page = await client.get<{ comments: Comment[] }>(`/api/comments/pins/${pin.id}/comments`);
    expect(page.body.comments.map((c) => c.text)).toContain('Read and liked');
  });

  test('logged out: old cookies replayed by a script that ignored the logout still get a fresh token', async () => {
    const { client } = await signUpUser(server.url, 'leaver');
    expect((await client.get(`/api/pins/${pin.id}`)).status).toBe(200);
    expect((await client.get(`/api/pins/${pin.id}`)).status).toBe(200);
    const stale = new Map(client.cookies);
    expect((await client.get('/api/auth/logout')).status).toBe(200);
    const replay = new ApiClient(server.url);
    for (const [name, value] of stale) replay.cookies.set(name, value);
    const res = await replay.get(`/api/pins/${pin.id}`);
    expect(res.status).toBe(200);
    expect(setCookies(res)).toContain('XSRF-TOKEN');
    expect(replay.csrfToken).not.toBe(stale.get('XSRF-TOKEN'));
  });
});

test('a path that another route declares before a cached one gets that route, from a known visitor too', async () => {
  const { client } = await signUpUser(server.url, 'looker');
  await client.get(`/api/pins/${pin.id}`);
  expect((await client.get(`/api/pins/${pin.id}`)).status).toBe(200);
  // GET /api/pins/lookup comes before GET /api/pins/{id} (which would call "lookup" a bad id).
  const lookup = await client.get<{ pins: Pin[] }>('/api/pins/lookup?sourceUrl=https%3A%2F%2Fexample.com%2Fpage');
  expect(lookup.status).toBe(200);
  expect(lookup.body.pins).toEqual([]);
});

describe('the API limit per address', () => {
  const limited = useTestServer({ env: { API_RATE_LIMIT_PER_IP: '12', API_RATE_LIMIT_WINDOW_SECONDS: '60' } });

  test('counts cached reads of a known visitor too: past the limit, 429', async () => {
    const visitor = new ApiClient(limited.url);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await visitor.get('/api/pins/')).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
  });
});

test('a bearer token is judged on a cached read too, whatever the cookies', async () => {
  const visitor = new ApiClient(server.url);
  await visitor.get(`/api/pins/${pin.id}`);
  await visitor.get(`/api/pins/${pin.id}`);
  const res = await visitor.request('GET', `/api/pins/${pin.id}`, { headers: { authorization: `Bearer pb_${'x'.repeat(40)}` } });
  expect(res.status).toBe(401);
});
