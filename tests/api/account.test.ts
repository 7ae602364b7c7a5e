import { describe, expect, test } from 'vitest';
import type { Account } from '../../contract/account.ts';
import type { Board, BoardMembers } from '../../contract/boards.ts';
import type { CommentList } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import type { TokenCreated } from '../../contract/tokens.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import { ApiClient, sameSessionOn, signUpUser } from '../support/client.ts';
import { addToBoard, newBoard, newComment, newPin } from '../support/factories.ts';
import { connectSocket, nextEvent, type TestSocket, watch } from '../support/sockets.ts';
import { TokenClient } from '../support/token-client.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Account settings (docs/accounts.md): the session list, changes that need the current password,
// ending the other sessions (and their sockets), and deleting an account with what others see of
// it. Runs on Postgres and on PGlite; the last suite on two instances joined by Redis.

const server = useTestServer();

/** Another signed-in session of the same account, with its own user agent. */
async function signInAgain(baseUrl: string, email: string, password: string, userAgent = 'Pinboard test phone'): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const res = await client.request('POST', '/api/auth/login', { json: { email, password }, headers: { 'user-agent': userAgent } });
  expect(res.status).toBe(200);
  return client;
}

const signedIn = async (client: ApiClient) => (await client.get<SessionBody>('/api/auth/')).body.user;

function closed(socket: TestSocket): Promise<void> {
  return socket.connected ? new Promise((resolve) => socket.once('disconnect', () => resolve())) : Promise.resolve();
}

describe('the session list', () => {
  test('lists every session of the account, this one first and marked, with its device and times', async () => {
    const { client, user, password } = await signUpUser(server.url, 'acclist');
    const phone = await signInAgain(server.url, user.email, password, 'Mozilla/5.0 (iPhone) Pinboard test');
    // A request after the sign-in notes the session's use and its user agent.
    await phone.request('GET', '/api/auth/', { headers: { 'user-agent': 'Mozilla/5.0 (iPhone) Pinboard test' } });
    const stranger = (await signUpUser(server.url, 'accother')).client;

    const res = await client.get<Account>('/api/account');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.user).toEqual(user);
    expect(res.body.sessions).toHaveLength(2);
    const [current, other] = res.body.sessions;
    expect(current).toMatchObject({ current: true });
    expect(other).toMatchObject({ current: false, userAgent: 'Mozilla/5.0 (iPhone) Pinboard test' });
    for (const session of res.body.sessions) {
      expect(Date.parse(session.createdAt)).toBeLessThanOrEqual(Date.parse(session.lastSeenAt));
      expect(Date.now() - Date.parse(session.lastSeenAt)).toBeLessThan(60_000);
      // Named by a digest, never by the cookie's own session id.
      expect(decodeURIComponent(client.cookies.get('pinboard.sid') ?? '')).not.toContain(session.id);
    }
    // Another user's sessions are theirs alone.
    expect((await stranger.get<Account>('/api/account')).body.sessions).toHaveLength(1);
    expect((await new ApiClient(server.url).get('/api/account')).status).toBe(401);
  });

  test('"Sign out everywhere else" ends the other sessions and their sockets, and keeps this one', async () => {
    const { client, user, password } = await signUpUser(server.url, 'accend');
    const laptop = await signInAgain(server.url, user.email, password);
    const laptopSocket = await server.socket(laptop);
    const ownSocket = await server.socket(client);
    const laptopClosed = closed(laptopSocket);

    expect((await client.post('/api/account/sessions/end-others')).status).toBe(204);
    await nextEvent(laptopSocket, 'session:ended');
    await laptopClosed;
    expect(await signedIn(laptop)).toBeNull();
    expect((await signedIn(client))?.id).toBe(user.id);
    expect(ownSocket.connected).toBe(true);
    expect((await client.get<Account>('/api/account')).body.sessions).toHaveLength(1);
  });
});

describe('changes that need the current password', () => {
  test('a wrong current password is 400 on the field, and changes nothing', async () => {
    const { client, user } = await signUpUser(server.url, 'accwrong');
    const res = await client.patch<ErrorBody>('/api/account', { username: 'someone_else_1', currentPassword: 'not my password' });
    expect(res.status).toBe(400);
    expect(res.body.fields.currentPassword).toBe('That is not your current password.');
    const password = await client.post<ErrorBody>('/api/account/password', { currentPassword: 'not my password', newPassword: 'a brand new password' });
    expect(password.status).toBe(400);
    expect(password.body.fields.currentPassword).toBe('That is not your current password.');
    const deletion = await client.request<ErrorBody>('DELETE', '/api/account', { json: { password: 'not my password' } });
    expect(deletion.status).toBe(400);
    expect(deletion.body.fields.password).toBe('That is not your current password.');
    expect((await client.get<Account>('/api/account')).body.user).toEqual(user);
  });

  test('bad input is 400 with the error shape, as at sign-up', async () => {
    const { client, password } = await signUpUser(server.url, 'accbad');
    const cases: Array<[string, unknown, string]> = [
      ['/api/account', { currentPassword: password }, 'username'],
      ['/api/account', { username: 'x', currentPassword: password }, 'username'],
      ['/api/account', { username: 'has space', currentPassword: password }, 'username'],
      ['/api/account', { email: 'not-an-email', currentPassword: password }, 'email'],
      ['/api/account', { username: 'fine_name' }, 'currentPassword'],
      ['/api/account/password', { currentPassword: password, newPassword: 'short' }, 'newPassword'],
      ['/api/account/password', { currentPassword: password }, 'newPassword'],
    ];
    for (const [path, body, field] of cases) {
      const res = path === '/api/account' ? await client.patch<ErrorBody>(path, body) : await client.post<ErrorBody>(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields[field], JSON.stringify(body)).toBeTruthy();
    }
    const notObject = await client.request<ErrorBody>('DELETE', '/api/account', { rawBody: '[1]' });
    expect(notObject.status).toBe(400);
  });

  test('changing the username and email: taken ones are 409 like sign-up; the new email signs in', async () => {
    const { client, user, password } = await signUpUser(server.url, 'accname');
    const other = await signUpUser(server.url, 'acctaken');
    const taken = await client.patch<ErrorBody>('/api/account', { username: other.user.username.toUpperCase(), email: other.user.email, currentPassword: password });
    expect(taken.status).toBe(409);
    expect(taken.body.fields).toEqual({ username: 'Username is already in use.', email: 'Email address is already in use.' });

    const fresh = `renamed${Date.now() % 1e9}`;
    const changed = await client.patch<User>('/api/account', { username: fresh, email: `${fresh}@Example.test`, currentPassword: password });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...user, username: fresh, email: `${fresh}@example.test` });
    // A change of case of one's own name is no conflict.
    expect((await client.patch<User>('/api/account', { username: fresh.toUpperCase(), currentPassword: password })).body.username).toBe(fresh.toUpperCase());
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: `${fresh}@example.test`, password })).status).toBe(200);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password })).status).toBe(401);
  });

  test('a password change ends every other session and socket, keeps this one, and the new password signs in', async () => {
    const { client, user, password } = await signUpUser(server.url, 'accpass');
    const phone = await signInAgain(server.url, user.email, password);
    const phoneSocket = await server.socket(phone);
    const phoneClosed = closed(phoneSocket);
    const res = await client.post('/api/account/password', { currentPassword: password, newPassword: 'a brand new password' });
    expect(res.status).toBe(204);
    await nextEvent(phoneSocket, 'session:ended');
    await phoneClosed;
    expect(await signedIn(phone)).toBeNull();
    expect((await signedIn(client))?.id).toBe(user.id);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password })).status).toBe(401);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: user.email, password: 'a brand new password' })).status).toBe(200);
  });

  test('wrong current passwords are throttled like sign-in attempts', async () => {
    const { client, password } = await signUpUser(server.url, 'accthrottle');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await client.post('/api/account/password', { currentPassword: `wrong ${i}`, newPassword: 'a brand new password' })).status);
    expect(statuses.slice(0, server.config.rateLimits.loginFailuresPerAddress)).toEqual(Array(server.config.rateLimits.loginFailuresPerAddress).fill(400));
    expect(statuses.at(-1)).toBe(429);
    // Even the right one waits out the window: the guesser and the owner share the address.
    expect((await client.post('/api/account/password', { currentPassword: password, newPassword: 'a brand new password' })).status).toBe(429);
  });
});

describe('a personal access token', () => {
  test('can call none of the account routes (403), whatever its scope', async () => {
    const { client, password } = await signUpUser(server.url, 'acctoken');
    const created = await client.post<TokenCreated>('/api/tokens', { name: 'script', scope: 'write' });
    expect(created.status).toBe(201);
    const token = new TokenClient(server.url, created.body.secret);
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/api/account', undefined],
      ['PATCH', '/api/account', { username: 'via_token', currentPassword: password }],
      ['POST', '/api/account/password', { currentPassword: password, newPassword: 'a brand new password' }],
      ['POST', '/api/account/sessions/end-others', undefined],
      ['DELETE', '/api/account', { password }],
      ['POST', '/api/auth/password-reset', { email: 'someone@example.test' }],
    ];
    for (const [method, path, json] of calls) {
      const res = await token.request<ErrorBody>(method, path, json === undefined ? {} : { json });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await client.get<Account>('/api/account')).status).toBe(200);
  });
});

describe('deleting an account', () => {
  test('needs the password; then its things go, others see it live, and the session ends', async () => {
    const leaving = await signUpUser(server.url, 'accgone');
    const staying = await signUpUser(server.url, 'accstay');
    const { client } = leaving;
    // What the leaving user made and touched.
    const ownPin = await newPin(client, 'Leaving pin');
    const ownBoard = await newBoard(client, 'Leaving board');
    await addToBoard(client, ownBoard.id, ownPin.id);
    expect((await client.post(`/api/boards/${ownBoard.id}/members`, { username: staying.user.username })).status).toBe(201);
    const otherPin = await newPin(staying.client, 'Staying pin');
    const sharedBoard = await newBoard(staying.client, 'Shared board');
    expect((await staying.client.post(`/api/boards/${sharedBoard.id}/members`, { username: leaving.user.username })).status).toBe(201);
    expect((await client.post('/api/favorites/', { pin_id: otherPin.id })).status).toBe(201);
    await newComment(client, otherPin.id, 'Bye');
    // The staying user's favorite of the leaving user's pin.
    expect((await staying.client.post('/api/favorites/', { pin_id: ownPin.id })).status).toBe(201);
    const leavingToken = await client.post<TokenCreated>('/api/tokens', { name: 'script', scope: 'read' });

    const watcher = await server.socket(staying.client);
    expect(await watch(watcher, { pinIds: [otherPin.id, ownPin.id] })).toEqual({ ok: true });
    const ownSocket = await server.socket(client);
    const ownClosed = closed(ownSocket);

    expect((await client.request('DELETE', '/api/account', { json: {} })).status).toBe(400);
    const res = await client.request('DELETE', '/api/account', { json: { password: leaving.password } });
    expect(res.status).toBe(204);

    await nextEvent(watcher, 'pin:deleted', (p) => p.pinId === ownPin.id);
    await nextEvent(watcher, 'board:deleted', (p) => p.boardId === ownBoard.id);
    await nextEvent(watcher, 'board:member-removed', (p) => p.boardId === sharedBoard.id && p.userId === leaving.user.id);
    await nextEvent(watcher, 'comment:deleted', (p) => p.pinId === otherPin.id);
    await nextEvent(watcher, 'pin:likes', (p) => p.pinId === otherPin.id && p.likesCount === 0);
    await nextEvent(ownSocket, 'session:ended');
    await ownClosed;

    expect(await signedIn(client)).toBeNull();
    expect((await client.get('/api/pins/')).status).toBe(200);
    expect((await staying.client.get(`/api/pins/${ownPin.id}`)).status).toBe(404);
    expect((await staying.client.get(`/api/boards/${ownBoard.id}`)).status).toBe(404);
    expect((await staying.client.get<Pin>(`/api/pins/${otherPin.id}`)).body.likes_count).toBe(0);
    expect((await staying.client.get<CommentList>(`/api/comments/pins/${otherPin.id}/comments`)).body.comments).toEqual([]);
    const members = await staying.client.get<BoardMembers>(`/api/boards/${sharedBoard.id}/members`);
    expect(JSON.stringify(members.body)).not.toContain(leaving.user.username);
    expect((await staying.client.get<Board>(`/api/boards/${sharedBoard.id}`)).status).toBe(200);
    expect((await new TokenClient(server.url, leavingToken.body.secret).get('/api/pins/')).status).toBe(401);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: leaving.user.email, password: leaving.password })).status).toBe(401);
    // The email and username are free again.
    const again = await new ApiClient(server.url).post('/api/auth/signup', { email: leaving.user.email, username: leaving.user.username, password: 'another long password' });
    expect(again.status).toBe(201);
  });
});

describe('on two instances joined by Redis', () => {
  const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

  test('sessions signed in on either instance are listed, and a password change on one ends the socket on the other', async () => {
    const { client, user, password } = await signUpUser(app.one.url, 'acc2i');
    const laptop = await signInAgain(app.two.url, user.email, password, 'Laptop on instance two');
    await laptop.request('GET', '/api/auth/', { headers: { 'user-agent': 'Laptop on instance two' } });
    const listed = await sameSessionOn(app.two.url, client).get<Account>('/api/account');
    expect(listed.body.sessions.map((s) => s.current)).toEqual([true, false]);
    expect(listed.body.sessions[1]?.userAgent).toBe('Laptop on instance two');

    const laptopSocket = await app.socket(app.two, laptop);
    const laptopClosed = closed(laptopSocket);
    const ownSocket = await connectSocket(app.one.url, client);
    try {
      expect((await client.post('/api/account/password', { currentPassword: password, newPassword: 'a brand new password' })).status).toBe(204);
      await nextEvent(laptopSocket, 'session:ended');
      await laptopClosed;
      // Instance two had the ended session cached; it forgot it before the change answered.
      expect(await signedIn(laptop)).toBeNull();
      expect((await signedIn(sameSessionOn(app.two.url, client)))?.id).toBe(user.id);
      expect(ownSocket.connected).toBe(true);
      expect((await client.get<Account>('/api/account')).body.sessions).toHaveLength(1);
    } finally {
      ownSocket.disconnect();
    }
  });
});
