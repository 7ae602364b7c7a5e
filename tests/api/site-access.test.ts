import { describe, expect, test } from 'vitest';
import type { BoardLinkCreated } from '../../contract/board-links.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import type { Pin } from '../../contract/pins.ts';
import type { TokenCreated } from '../../contract/tokens.ts';
import type { SessionBody } from '../../contract/users.ts';
import { API_ROUTES } from '../../backend/routes.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { addToBoard, newBoard } from '../support/factories.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { connectSocket } from '../support/sockets.ts';
import { useTestServer } from '../support/use-test-server.ts';

// A members-only site (SITE_VISIBILITY=members, docs/site-access.md): visitors reach only the
// calls for joining, the session check, password reset and board links; pages, sockets and /media/
// need a member (or, for an image, a link that shows it). And disabled accounts, on any site.

const server = useTestServer({ seed: { pins: 3 }, env: { SITE_VISIBILITY: 'members' } });

/** What the site leaves open to visitors, written out here (not read from the gate) so the two are checked against each other. */
const OPEN = new Set([
  'GET /api/auth/',
  'POST /api/auth/login',
  'POST /api/auth/signup',
  'POST /api/auth/demo',
  'GET /api/auth/logout',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'GET /api/links/{secret}',
]);

const filled = (path: string) => path.replace(/\{secret\}/g, 'x'.repeat(43)).replace(/\{\w+\}/g, '1');

describe('a members-only site to an anonymous visitor', () => {
  test.each(API_ROUTES.map((declared) => [`${declared.method.toUpperCase()} ${declared.path}`, declared] as const))('%s', async (label, declared) => {
    const visitor = new ApiClient(server.url);
    const method = declared.method.toUpperCase();
    // With the anti-forgery token: a refusal here is the site's, not the token check's.
    const res = await visitor.request<ErrorBody>(method, filled(declared.path), method === 'GET' || method === 'DELETE' ? {} : { json: {} });
    if (OPEN.has(label)) expect(res.status, label).not.toBe(401);
    else {
      expect(res.status, label).toBe(401);
      expect(res.body).toEqual({ message: 'You must be signed in to do that.', errors: ['You must be signed in to do that.'], fields: {} });
    }
  });

  test('a visitor without the anti-forgery token gets 401 too, not 403', async () => {
    const res = await new ApiClient(server.url).request('POST', '/api/pins/', { json: { title: 't', imageUrl: 'https://a.test/x.png' }, csrf: false });
    expect(res.status).toBe(401);
  });

  test('the session check says how the site is run', async () => {
    const res = await new ApiClient(server.url).get<SessionBody>('/api/auth/');
    expect(res.body).toEqual({ user: null, site: { visibility: 'members', signups: 'open' } });
  });

  test('the home page sends a visitor to log in; other pages carry no data', async () => {
    const home = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/login');
    const pin = await fetch(`${server.url}/pins/1`);
    expect(pin.status).toBe(200);
    const html = await pin.text();
    expect(html).not.toContain('pinboard-home-first-page');
    expect(html).toContain('"site":{"visibility":"members"');
  });

  test('an anonymous socket is refused at the handshake; a member connects', async () => {
    await expect(connectSocket(server.url)).rejects.toThrow();
    const { client } = await signUpUser(server.url);
    const socket = await connectSocket(server.url, client);
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });
});

describe('a members-only site to its members', () => {
  test('a member and a personal token reach the API', async () => {
    const { client } = await signUpUser(server.url);
    expect((await client.get('/api/pins/')).status).toBe(200);
    const token = await client.post<TokenCreated>('/api/tokens', { name: 'script', scope: 'read' });
    const res = await new ApiClient(server.url).request('GET', '/api/pins/', { headers: { authorization: `Bearer ${token.body.secret}` } });
    expect(res.status).toBe(200);
  });

  test('/media/ needs a session, or a link to a board that shows the image', async () => {
    const { client } = await signUpUser(server.url);
    const uploaded = await client.upload<ImageUploaded>('/api/images/', { bytes: await jpeg(64, 48), name: 'a.jpg', type: 'image/jpeg' });
    expect(uploaded.status).toBe(201);
    const { url } = uploaded.body.image;
    const pin = (await client.post<Pin>('/api/pins/', { title: 'Linked', imageUrl: url })).body;
    const board = await newBoard(client, 'Shown');
    await addToBoard(client, board.id, pin.id);
    const other = await newBoard(client, 'Other');
    const link = (await client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`)).body.link.url.slice('/b/'.length);
    const otherLink = (await client.post<BoardLinkCreated>(`/api/boards/${other.id}/links`)).body.link.url.slice('/b/'.length);

    expect((await fetch(server.url + url)).status).toBe(401);
    const member = await client.request('GET', url);
    expect(member.status).toBe(200);
    expect(member.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await fetch(`${server.url}${url}?link=${link}`)).status).toBe(200);
    expect((await fetch(`${server.url}${url}?link=${otherLink}`)).status).toBe(401);
    expect((await fetch(`${server.url}${url}?link=nonsense`)).status).toBe(401);
  });
});

describe('a disabled account', () => {
  const disable = (id: number) => server.server.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', id).execute();

  test('cannot sign in (403 once the password is right), its session and token end, its socket is told', async () => {
    const { client, user, password } = await signUpUser(server.url);
    const token = (await client.post<TokenCreated>('/api/tokens', { name: 'script', scope: 'read' })).body.secret;
    const socket = await connectSocket(server.url, client);
    await disable(user.id);
    // The instance trusts an account's standing for up to 5 s (docs/site-access.md).
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    const check = await client.get<SessionBody>('/api/auth/');
    expect(check.body.user).toBeNull();
    expect((await client.get('/api/pins/')).status).toBe(401);
    await expect.poll(() => socket.connected, { timeout: 3_000 }).toBe(false);
    const bearer = await new ApiClient(server.url).request('GET', '/api/pins/', { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(401);

    const wrong = await new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: user.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    const right = await new ApiClient(server.url).post<ErrorBody>('/api/auth/login', { email: user.email, password });
    expect(right.status).toBe(403);
    expect(right.body.message).toBe('This account is disabled.');
  });
});
