import { expect, test } from 'vitest';
import { useTestServer } from '../support/use-test-server.ts';

// A client written only from the product specification's call table (docs/product.md §7), not from our own
// web client or our API documents: "All calls send cookies. Non-GET calls through the main helper
// send a JSON content type and an anti-forgery header taken from the XSRF-TOKEN cookie. Any response
// with status 400 or above is treated as an error." It names the header `XSRF-Token`, as the app
// the specification was written from does, logs out with a plain GET, reads sign-in errors as a
// flat object of field messages, and knows nothing of cursors. Nothing here imports from contract/.
const server = useTestServer();

type Json = Record<string, unknown>;

/** What a browser does around the script's fetch: keeps cookies and says where the call comes from. */
class BrowserTransport {
  readonly jar = new Map<string, string>();
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  async fetch(path: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    // A same-origin fetch from a page: the browser adds the cookies and Fetch Metadata itself.
    const headers = { ...init.headers, ...(cookie ? { cookie } : {}), 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };
    const response = await fetch(this.origin + path, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }
}

class ResponseError extends Error {
  readonly status: number;
  readonly body: Json;
  constructor(status: number, body: Json) {
    super(`status ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** The SPEC's "main helper". */
class SpecClient {
  readonly browser: BrowserTransport;
  constructor(origin: string) {
    this.browser = new BrowserTransport(origin);
  }

  async call<T = Json>(method: string, path: string, payload?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      headers['XSRF-Token'] = decodeURIComponent(this.browser.jar.get('XSRF-TOKEN') ?? '');
    }
    const init = { method, headers, ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}) };
    const response = await this.browser.fetch(path, init);
    const text = await response.text();
    const body = (text ? JSON.parse(text) : {}) as Json;
    if (response.status >= 400) throw new ResponseError(response.status, body);
    return body as T;
  }

  /** GET /api/auth/: "{user} or the user directly (with id); otherwise the session is cleared". */
  async sessionUser(): Promise<Json | null> {
    const data = await this.call('GET', '/api/auth/');
    const user = (data.user ?? data) as Json | null;
    return user && typeof user.id === 'number' ? user : null;
  }

  /** Login and signup: errors below 500 are read as field messages; 500 and above as {server}. */
  async authenticate(path: string, payload: Json): Promise<{ user?: Json; errors?: Json }> {
    try {
      return { user: await this.call('POST', path, payload) };
    } catch (error) {
      if (!(error instanceof ResponseError)) throw error;
      return { errors: error.status < 500 ? error.body : { server: 'Something went wrong. Please try again' } };
    }
  }

  async failure(method: string, path: string, payload?: unknown): Promise<ResponseError> {
    try {
      await this.call(method, path, payload);
    } catch (error) {
      if (error instanceof ResponseError) return error;
      throw error;
    }
    throw new Error(`${method} ${path} did not fail`);
  }
}

const tag = `spec${process.pid}${Date.now() % 1e6}`;
const account = { email: `${tag}@example.test`, username: tag, password: 'a long enough password' };

test('a SPEC-only client signs up, logs in, pins, favorites, fills a board, comments and logs out', async () => {
  const client = new SpecClient(server.url);
  // Start-up: the session check (anonymous), which also hands out the XSRF-TOKEN cookie.
  expect(await client.sessionUser()).toBeNull();
  expect(client.browser.jar.get('XSRF-TOKEN')).toBeTruthy();

  const signup = await client.authenticate('/api/auth/signup', account);
  expect(signup.errors).toBeUndefined();
  expect(signup.user).toMatchObject({ id: expect.any(Number), username: tag, email: account.email });
  expect((await client.sessionUser())?.id).toBe(signup.user?.id);

  // Logout is a plain GET from the page's script: no anti-forgery header.
  await client.call('GET', '/api/auth/logout');
  expect(await client.sessionUser()).toBeNull();

  // Field messages, read from the top level of the error body as the SPEC's forms do.
  const wrong = await client.authenticate('/api/auth/login', { email: account.email, password: 'not the password' });
  expect(wrong.errors?.credential).toBe('The provided credentials were invalid.');
  const empty = await client.authenticate('/api/auth/login', { email: '', password: '' });
  expect(empty.errors).toMatchObject({ email: 'Email is required.', password: 'Password is required.' });
  const taken = await client.authenticate('/api/auth/signup', account);
  expect(taken.errors).toMatchObject({ email: 'Email address is already in use.', username: 'Username is already in use.' });

  const login = await client.authenticate('/api/auth/login', { email: account.email, password: account.password });
  expect(login.user?.id).toBe(signup.user?.id);
  const me = login.user as Json;

  // Pins.
  const pin = await client.call('POST', '/api/pins/', { title: 'Spec pin', imageUrl: 'https://example.com/spec.jpg', description: 'From the call table' });
  expect(pin).toMatchObject({ title: 'Spec pin', image_url: 'https://example.com/spec.jpg', description: 'From the call table', user_id: me.id, user: { username: tag } });
  const all = await client.call<{ pins: Json[] }>('GET', '/api/pins/');
  expect(all.pins.map((p) => p.id)).toContain(pin.id);
  const edited = await client.call('PUT', `/api/pins/${String(pin.id)}`, { title: 'Spec pin, edited', description: 'Edited' });
  expect(edited).toMatchObject({ id: pin.id, title: 'Spec pin, edited' });

  // Favorites: the id to delete is the favorite's, not the pin's.
  const favorite = await client.call('POST', '/api/favorites/', { pin_id: pin.id });
  expect(favorite).toMatchObject({ id: expect.any(Number), pin_id: pin.id, title: 'Spec pin, edited', likes_count: 1 });
  expect(await client.call('POST', '/api/favorites/', { pin_id: pin.id })).toEqual({ message: 'Already favorited' });
  const favorites = await client.call<{ pins: Json[] }>('GET', '/api/favorites/');
  expect(favorites.pins.map((f) => f.id)).toEqual([favorite.id]);

  // Boards.
  const board = await client.call('POST', '/api/boards/', { name: 'Spec board' });
  expect(board).toMatchObject({ name: 'Spec board', user_id: me.id, pins: [] });
  expect(await client.call('POST', `/api/boards/${String(board.id)}/pins`, { pin_id: pin.id })).toMatchObject({ id: pin.id });
  await client.call('PATCH', `/api/boards/${String(board.id)}`, { name: 'Spec board, renamed' });
  const detail = await client.call<{ name: string; pins: Json[] }>('GET', `/api/boards/${String(board.id)}`);
  expect(detail.name).toBe('Spec board, renamed');
  expect(detail.pins.map((p) => p.id)).toEqual([pin.id]);
  const boards = await client.call<{ boards: Json[] }>('GET', '/api/boards/');
  expect(boards.boards.map((b) => b.id)).toEqual([board.id]);
  const noName = await client.failure('POST', '/api/boards/', { name: ' ' });
  expect(noName.body.errors).toContain('Board name cannot be empty.');

  // Comments: one per user per pin, the second refused with the text the SPEC looks for.
  const path = `/api/comments/pins/${String(pin.id)}/comments`;
  const comment = await client.call('POST', path, { text: 'Nice one' });
  expect(comment).toMatchObject({ text: 'Nice one', pin_id: pin.id, user_id: me.id, username: tag, created_at: expect.any(String) });
  const second = await client.failure('POST', path, { text: 'Again' });
  expect(second.body.errors).toContain('You have already commented on this pin.');
  await client.call('PUT', `/api/comments/${String(comment.id)}`, { text: 'Nicer one' });
  const comments = await client.call<{ comments: Json[] }>('GET', path);
  expect(comments.comments.map((c) => c.text)).toEqual(['Nicer one']);

  // Undo it all, then log out.
  await client.call('DELETE', `/api/comments/${String(comment.id)}`);
  await client.call('DELETE', `/api/boards/${String(board.id)}/pins/${String(pin.id)}`);
  await client.call('DELETE', `/api/favorites/${String(favorite.id)}`);
  await client.call('DELETE', `/api/boards/${String(board.id)}`);
  await client.call('DELETE', `/api/pins/${String(pin.id)}`);
  expect((await client.call<{ pins: Json[] }>('GET', '/api/favorites/')).pins).toEqual([]);
  await client.call('GET', '/api/auth/logout');
  expect(await client.sessionUser()).toBeNull();
  // Signed out, the same writes are refused.
  expect((await client.failure('POST', '/api/pins/', { title: 'x', imageUrl: 'https://example.com/x.jpg' })).status).toBe(401);
});

test('its logout is still refused when it is not a same-origin script (another site, or a navigation)', async () => {
  const client = new SpecClient(server.url);
  await client.sessionUser();
  await client.authenticate('/api/auth/signup', { ...account, email: `x${account.email}`, username: `x${tag}` });
  const cookie = [...client.browser.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const crossSite = await fetch(`${server.url}/api/auth/logout`, { headers: { cookie, 'sec-fetch-site': 'cross-site' } });
  expect(crossSite.status).toBe(403);
  expect(await client.sessionUser()).not.toBeNull();
});
