import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import type { User } from '../../contract/users.ts';
import { type DemoImage, demoImages, demoImageUrl } from '../../db/demo-catalog.ts';
import { createResetLink } from '../../backend/account/password-reset.service.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import {
  ajv,
  call,
  concretePath,
  doc,
  exercised,
  expectDocumented,
  loadDocument,
  type Method,
  operation,
  ownedFixtures,
  pinBody,
  responseSchema,
  SCHEMA_BASE,
  validatorFor,
} from '../support/openapi-check.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

// The OpenAPI document served at /api/openapi.json is checked against the running server: every
// real response (successes and errors) must validate against the schema the document gives for its
// path, method and status; every documented operation must exist; every docs/product.md §7 call is documented.

/** docs/product.md §7, row by row, plus GET /api/pins/{id} and the server-side demo sign-in. */
const SPEC_ROUTES: Array<[Method, string]> = [
  ['GET', '/api/auth/'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/signup'],
  ['GET', '/api/auth/logout'],
  ['GET', '/api/pins/'],
  ['POST', '/api/pins/'],
  ['PUT', '/api/pins/{id}'],
  ['DELETE', '/api/pins/{id}'],
  ['GET', '/api/boards/'],
  ['GET', '/api/boards/{id}'],
  ['POST', '/api/boards/'],
  ['PATCH', '/api/boards/{id}'],
  ['DELETE', '/api/boards/{id}'],
  ['POST', '/api/boards/{id}/pins'],
  ['DELETE', '/api/boards/{id}/pins/{pinId}'],
  ['GET', '/api/favorites/'],
  ['POST', '/api/favorites/'],
  ['DELETE', '/api/favorites/{id}'],
  ['GET', '/api/comments/pins/{pinId}/comments'],
  ['POST', '/api/comments/pins/{pinId}/comments'],
  ['PUT', '/api/comments/{id}'],
  ['DELETE', '/api/comments/{id}'],
  ['GET', '/api/pins/{id}'],
  ['POST', '/api/auth/demo'],
];

const server = useTestServer({ seed: { pins: 12 } });
beforeAll(() => loadDocument(server.url));

describe('the document', () => {
  test('is OpenAPI 3.1 and every component schema compiles under JSON Schema 2020-12', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const names = Object.keys(doc.components?.schemas ?? {});
    expect(names).toEqual(expect.arrayContaining(['Error', 'Pin', 'Board', 'Favorite', 'Comment', 'User']));
    for (const name of names) expect(() => ajv.getSchema(SCHEMA_BASE + name), name).not.toThrow();
    for (const name of names) expect(ajv.getSchema(SCHEMA_BASE + name), name).toBeTypeOf('function');
  });

  test('lists every route of docs/product.md §7 (and GET /api/pins/{id}), each with a JSON success schema', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    for (const [method, path] of SPEC_ROUTES) {
      expect(documented, `${method} ${path}`).toContain(`${method} ${path}`);
      const successes = Object.keys(operation(method, path).responses).filter((s) => /^2\d\d$/.test(s));
      expect(successes.length, `${method} ${path} has a 2xx`).toBeGreaterThan(0);
      for (const status of successes) expect(() => responseSchema(method, path, Number(status))).not.toThrow();
    }
  });

  test('every error response is documented with the Error schema', () => {
    for (const [method, path] of SPEC_ROUTES) {
      for (const [status, response] of Object.entries(operation(method, path).responses)) {
        if (Number(status) < 400) continue;
        expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  test('success schemas are not vacuous: none accepts null, {} or a bare string', () => {
    // Otherwise "the response validates" would prove nothing.
    const lax: string[] = [];
    for (const [method, path] of SPEC_ROUTES) {
      for (const status of Object.keys(operation(method, path).responses).filter((s) => /^2\d\d$/.test(s))) {
        const validate = validatorFor(responseSchema(method, path, Number(status)));
        for (const sample of [null, {}, 'text']) if (validate(sample)) lax.push(`${method} ${path} ${status} accepts ${JSON.stringify(sample)}`);
      }
    }
    expect(lax).toEqual([]);
  });
});

describe('real successful responses match the document', () => {
  test('auth: session check (anonymous and signed in), signup, login, logout, demo login', async () => {
    const anonymous = new ApiClient(server.url);
    const session = await call<{ user: User | null }>(anonymous, 'GET', '/api/auth/', { expect: 200 });
    expect(session.body.user).toBeNull();

    const tag = `doc${process.pid}${Date.now() % 1e6}`;
    const client = new ApiClient(server.url);
    const signup = await call<User>(client, 'POST', '/api/auth/signup', {
      json: { email: `${tag}@example.test`, username: tag, password: 'long enough password', firstName: 'Doc' },
      expect: 201,
    });
    expect((await call<{ user: User }>(client, 'GET', '/api/auth/', { expect: 200 })).body.user.id).toBe(signup.body.id);
    await call(client, 'GET', '/api/auth/logout', { expect: 200 });
    await call(client, 'POST', '/api/auth/login', { json: { email: `${tag}@example.test`, password: 'long enough password' }, expect: 200 });
    await call(new ApiClient(server.url), 'POST', '/api/auth/login', { json: { email: 'demo@pinboard.test', password: 'demo-password' }, expect: 200 });
    await call(new ApiClient(server.url), 'POST', '/api/auth/demo', { expect: 200 });
  });

  test('pins: list, create, read, edit, delete', async () => {
    const { client } = await signUpUser(server.url, 'docpins');
    const list = await call<{ pins: Pin[] }>(client, 'GET', '/api/pins/', { expect: 200 });
    expect(list.body.pins.length).toBeGreaterThan(0);
    const created = await call<Pin>(client, 'POST', '/api/pins/', { json: pinBody(), expect: 201 });
    // A description may be left out; the document says so too.
    await call(client, 'POST', '/api/pins/', { json: { title: 'No description', imageUrl: demoImageUrl(demoImages()[0] as DemoImage) }, expect: 201 });
    await call(new ApiClient(server.url), 'GET', '/api/pins/{id}', { params: { id: created.body.id }, expect: 200 });
    await call(client, 'PUT', '/api/pins/{id}', { params: { id: created.body.id }, json: { title: 'Edited', description: 'Edited.' }, expect: 200 });
    await call(client, 'DELETE', '/api/pins/{id}', { params: { id: created.body.id }, expect: 200 });
  });

  test('boards: create, list, read, rename, add a pin (new and again), remove it, delete', async () => {
    const { client } = await signUpUser(server.url, 'docboards');
    const pin = await call<Pin>(client, 'POST', '/api/pins/', { json: pinBody('On a board'), expect: 201 });
    const board = await call<Board>(client, 'POST', '/api/boards/', { json: { name: 'Documented board' }, expect: 201 });
    const params = { id: board.body.id, pinId: pin.body.id };
    await call(client, 'POST', '/api/boards/{id}/pins', { params, json: { pin_id: pin.body.id }, expect: 201 });
    await call(client, 'POST', '/api/boards/{id}/pins', { params, json: { pin_id: pin.body.id }, expect: 200 });
    await call(client, 'POST', '/api/boards/', { json: { name: 'Empty board' }, expect: 201 });
    const list = await call<{ boards: Board[] }>(client, 'GET', '/api/boards/', { expect: 200 });
    expect(list.body.boards.some((b) => b.pins.length > 0)).toBe(true);
    await call(client, 'GET', '/api/boards/{id}', { params, expect: 200 });
    await call(client, 'PATCH', '/api/boards/{id}', { params, json: { name: 'Renamed board' }, expect: 200 });
    await call(client, 'DELETE', '/api/boards/{id}/pins/{pinId}', { params, expect: 200 });
    await call(client, 'DELETE', '/api/boards/{id}', { params, expect: 200 });
  });

  test('shared boards: find a user, invite them, list members, remove them', async () => {
    const { client } = await signUpUser(server.url, 'docshare');
    const friend = await signUpUser(server.url, 'docfriend');
    const found = await call<{ users: Array<{ id: number }> }>(client, 'GET', '/api/users/', { query: `q=${friend.user.username}`, expect: 200 });
    expect(found.body.users.map((u) => u.id)).toEqual([friend.user.id]);
    const profile = await call<{ id: number }>(new ApiClient(server.url), 'GET', '/api/users/lookup', { query: `username=${friend.user.username.toUpperCase()}`, expect: 200 });
    expect(profile.body).toEqual({ id: friend.user.id, username: friend.user.username, pin_count: 0 });
    await call(new ApiClient(server.url), 'GET', '/api/users/lookup', { query: 'username=nobody-here-at-all', expect: 404 });
    const board = await call<Board>(client, 'POST', '/api/boards/', { json: { name: 'Shared board' }, expect: 201 });
    const params = { id: board.body.id, userId: friend.user.id };
    await call(client, 'POST', '/api/boards/{id}/members', { params, json: { username: friend.user.username }, expect: 201 });
    await call(friend.client, 'GET', '/api/boards/{id}/members', { params, expect: 200 });
    await call(friend.client, 'GET', '/api/users/{id}/boards', { params: { id: friend.user.id }, expect: 200 });
    await call(client, 'GET', '/api/users/{id}/boards', { params: { id: friend.user.id }, expect: 200 });
    await call(client, 'DELETE', '/api/boards/{id}/members/{userId}', { params, expect: 200 });
  });

  test('blocks: block a user (and again), list, unblock', async () => {
    const { client } = await signUpUser(server.url, 'docblock');
    const owner = await signUpUser(server.url, 'docblocked');
    await call(client, 'POST', '/api/users/blocks', { json: { userId: owner.user.id }, expect: 201 });
    await call(client, 'POST', '/api/users/blocks', { json: { userId: owner.user.id }, expect: 200 });
    await call(client, 'GET', '/api/users/blocks', { expect: 200 });
    await call(client, 'DELETE', '/api/users/blocks/{userId}', { params: { userId: owner.user.id }, expect: 200 });
  });

  test("search: a query, the type-ahead, a tag's pins, related pins", async () => {
    const { client } = await signUpUser(server.url, 'docsearch');
    const pin = await call<Pin>(client, 'POST', '/api/pins/', { json: { ...pinBody('Documented heron'), description: 'By the pond #herons' }, expect: 201 });
    await call<Pin>(client, 'POST', '/api/pins/', { json: { ...pinBody('Another heron'), description: '#herons' }, expect: 201 });
    const found = await call<{ pins: Pin[] }>(client, 'GET', '/api/search', { query: 'q=heron&limit=1', expect: 200 });
    expect(found.body.pins).toHaveLength(1);
    const suggested = await call<{ tags: Array<{ tag: string }> }>(client, 'GET', '/api/search/suggest', { query: 'q=hero', expect: 200 });
    expect(suggested.body.tags.map((t) => t.tag)).toContain('herons');
    await call(client, 'GET', '/api/pins/', { query: 'tag=herons', expect: 200 });
    await call(client, 'GET', '/api/pins/{id}/related', { params: { id: pin.body.id }, expect: 200 });
    await call(client, 'GET', '/api/search', { query: `q=${'x'.repeat(201)}`, expect: 400 });
  });

  test("mending a pin's image: its status, and a new address", async () => {
    const { client } = await signUpUser(server.url, 'docmend');
    const pin = await call<Pin>(client, 'POST', '/api/pins/', { json: { title: 'To mend', imageUrl: 'https://example.invalid/a.jpg', description: '' }, expect: 201 });
    const params = { id: pin.body.id };
    await call(client, 'GET', '/api/pins/{id}/image-status', { params, expect: 200 });
    await call(client, 'PUT', '/api/pins/{id}', { params, json: { title: 'Mended', description: '', imageUrl: 'https://example.invalid/b.jpg' }, expect: 200 });
  });

  test('favorites: add, add again, list, remove', async () => {
    const { client } = await signUpUser(server.url, 'docfavs');
    const pins = await client.get<{ pins: Pin[] }>('/api/pins/');
    const pinId = pins.body.pins[0]?.id as number;
    const favorite = await call<Favorite>(client, 'POST', '/api/favorites/', { json: { pin_id: pinId }, expect: 201 });
    await call(client, 'POST', '/api/favorites/', { json: { pin_id: pinId }, expect: 200 });
    const list = await call<{ pins: Favorite[] }>(client, 'GET', '/api/favorites/', { expect: 200 });
    expect(list.body.pins).toHaveLength(1);
    await call(client, 'DELETE', '/api/favorites/{id}', { params: { id: favorite.body.id }, expect: 200 });
  });

  test('changes: a page of the log, and a reset from ahead of it', async () => {
    const { client } = await signUpUser(server.url, 'docchanges');
    const page = await call<{ changes: unknown[]; lastSeq: number }>(client, 'GET', '/api/changes', { query: 'since=0', expect: 200 });
    expect(page.body.changes.length).toBeGreaterThan(0);
    await call(new ApiClient(server.url), 'GET', '/api/changes', { query: `since=${page.body.lastSeq + 1}`, expect: 200 });
  });

  test('comments: create, list, edit, delete', async () => {
    const { client } = await signUpUser(server.url, 'doccomments');
    const pins = await client.get<{ pins: Pin[] }>('/api/pins/');
    const pinId = pins.body.pins[0]?.id as number;
    const comment = await call<Comment>(client, 'POST', '/api/comments/pins/{pinId}/comments', { params: { pinId }, json: { text: 'Documented' }, expect: 201 });
    const list = await call<{ comments: Comment[] }>(new ApiClient(server.url), 'GET', '/api/comments/pins/{pinId}/comments', { params: { pinId }, expect: 200 });
    expect(list.body.comments.length).toBeGreaterThan(0);
    await call(client, 'PUT', '/api/comments/{id}', { params: { id: comment.body.id }, json: { text: 'Edited' }, expect: 200 });
    await call(client, 'DELETE', '/api/comments/{id}', { params: { id: comment.body.id }, expect: 200 });
  });
});

describe('invite links match the document', () => {
  test('create, list, revoke (docs/site-access.md)', async () => {
    const { client } = await signUpUser(server.url, 'docinvites');
    const created = await call<{ invite: { id: number } }>(client, 'POST', '/api/invites', { json: { uses: 2, expiresInDays: 3 }, expect: 201 });
    await call(client, 'GET', '/api/invites', { expect: 200 });
    await call(client, 'DELETE', '/api/invites/{id}', { params: { id: created.body.invite.id }, expect: 200 });
    await call(client, 'DELETE', '/api/invites/{id}', { params: { id: created.body.invite.id }, expect: 404 });
  });
});

describe('tokens and source pages match the document', () => {
  test("tokens: create, list, revoke; a pin from a page and the lookup; a token's refusals", async () => {
    const { client } = await signUpUser(server.url, 'doctokens');
    const created = await call<{ token: { id: number }; secret: string }>(client, 'POST', '/api/tokens', { json: { name: 'Documented', scope: 'write', expiresInDays: 7 }, expect: 201 });
    await call(client, 'GET', '/api/tokens', { expect: 200 });
    await call(client, 'POST', '/api/pins/', { json: { ...pinBody('From a page'), sourceUrl: 'https://example.com/page' }, expect: 201 });
    const found = await call<{ pins: Pin[] }>(client, 'GET', '/api/pins/lookup', { query: 'sourceUrl=https%3A%2F%2Fexample.com%2Fpage', expect: 200 });
    expect(found.body.pins).toHaveLength(1);
    await call(client, 'GET', '/api/pins/lookup', { query: 'sourceUrl=javascript%3Ax', expect: 400 });
    const bearer = { authorization: `Bearer ${created.body.secret}` };
    // A token may not manage tokens (403); a bad one is 401 on any call, public reads included.
    const refused = await client.request('GET', '/api/tokens', { csrf: false, headers: bearer });
    expect(refused.status).toBe(403);
    expectDocumented('GET', '/api/tokens', refused);
    const unknown = await new ApiClient(server.url).request('GET', '/api/pins/', { csrf: false, headers: { authorization: `Bearer pb_${'x'.repeat(43)}` } });
    expect(unknown.status).toBe(401);
    expectDocumented('GET', '/api/pins/', unknown);
    await call(client, 'DELETE', '/api/tokens/{id}', { params: { id: created.body.token.id }, expect: 200 });
    await call(client, 'DELETE', '/api/tokens/{id}', { params: { id: created.body.token.id }, expect: 404 });
  });

  test('the bearer scheme is declared, and routes a token may call offer it', () => {
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes;
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const security = (method: string, path: string) => (operation(method, path) as unknown as { security?: unknown[] }).security;
    expect(security('POST', '/api/pins/')).toEqual([{ session: [], csrf: [] }, { bearer: [] }]);
    expect(security('GET', '/api/tokens')).toEqual([{ session: [], csrf: [] }]);
  });
});

describe('public boards and board links match the document', () => {
  test('a board made public and read signed out; a link made, listed, opened, revoked', async () => {
    const { client } = await signUpUser(server.url, 'doclinks');
    const board = await client.post<Board>('/api/boards/', { name: 'Linked board' });
    const id = board.body.id;
    await call(client, 'PATCH', '/api/boards/{id}', { params: { id }, json: { visibility: 'public' }, expect: 200 });
    await call(new ApiClient(server.url), 'GET', '/api/boards/{id}', { params: { id }, expect: 200 });
    const made = await call<{ link: { id: number; url: string } }>(client, 'POST', '/api/boards/{id}/links', { params: { id }, expect: 201 });
    await call(client, 'GET', '/api/boards/{id}/links', { params: { id }, expect: 200 });
    const secret = made.body.link.url.slice('/b/'.length);
    await call(new ApiClient(server.url), 'GET', '/api/links/{secret}', { params: { secret }, expect: 200 });
    await call(client, 'DELETE', '/api/boards/{id}/links/{linkId}', { params: { id, linkId: made.body.link.id }, expect: 200 });
    await call(new ApiClient(server.url), 'GET', '/api/links/{secret}', { params: { secret }, expect: 404 });
  });
});

describe('duplicates match the document', () => {
  test("a pin's look-alikes, the Duplicates page, a merge and its undo", async () => {
    const { client } = await signUpUser(server.url, 'docdups');
    const stored = await client.upload<{ image: { url: string } }>('/api/images/', { bytes: await jpeg(33, 21), name: 'a.jpg', type: 'image/jpeg' });
    const kept = await client.post<Pin>('/api/pins/', { title: 'One', imageUrl: stored.body.image.url });
    const other = await client.post<Pin>('/api/pins/', { title: 'Two', imageUrl: stored.body.image.url });
    await call(client, 'GET', '/api/pins/{id}/duplicates', { params: { id: kept.body.id }, expect: 200 });
    await call(client, 'GET', '/api/images/duplicates', { query: `url=${encodeURIComponent(stored.body.image.url)}`, expect: 200 });
    await call(client, 'GET', '/api/duplicates', { expect: 200 });
    const merged = await call<{ mergeId: number }>(client, 'POST', '/api/duplicates/merge', { json: { keep: kept.body.id, merge: [other.body.id] }, expect: 200 });
    await call(client, 'POST', '/api/duplicates/merge/undo', { json: { mergeId: merged.body.mergeId }, expect: 200 });
    await call(client, 'POST', '/api/duplicates/merge/undo', { json: { mergeId: merged.body.mergeId }, expect: 404 });
  });
});

describe('account settings and password resets match the document', () => {
  test('the account, its changes, ending the other sessions, a reset request and its link, deleting the account', async () => {
    const { client, user, password } = await signUpUser(server.url, 'docaccount');
    await call(client, 'GET', '/api/account', { expect: 200 });
    await call(client, 'PATCH', '/api/account', { json: { username: `${user.username}x`, currentPassword: password }, expect: 200 });
    await call(client, 'PATCH', '/api/account', { json: { username: `${user.username}y`, currentPassword: 'not the password' }, expect: 400 });
    await call(client, 'POST', '/api/account/password', { json: { currentPassword: password, newPassword: 'another long password' }, expect: 204 });
    await call(client, 'POST', '/api/account/sessions/end-others', { expect: 204 });
    await call(new ApiClient(server.url), 'POST', '/api/auth/password-reset', { json: { email: user.email }, expect: 202 });
    const link = await createResetLink({ db: server.server.database.db }, user.email);
    const token = new URL(link ?? '', server.url).searchParams.get('token');
    await call(new ApiClient(server.url), 'POST', '/api/auth/password-reset/confirm', { json: { token, password: 'the password after' }, expect: 204 });
    await call(new ApiClient(server.url), 'POST', '/api/auth/password-reset/confirm', { json: { token, password: 'the password after' }, expect: 400 });
    const again = new ApiClient(server.url);
    await call(again, 'POST', '/api/auth/login', { json: { email: user.email, password: 'the password after' }, expect: 200 });
    await call(again, 'DELETE', '/api/account', { json: { password: 'the password after' }, expect: 204 });
  });
});

describe('real uploads match the document', () => {
  test('images: an upload, the same bytes again, and a refusal', async () => {
    const { client } = await signUpUser(server.url, 'docimages');
    const bytes = await jpeg(120, 90);
    for (let i = 0; i < 2; i++) {
      const stored = await client.upload('/api/images/', { bytes, name: 'doc.jpg', type: 'image/jpeg' });
      expect(stored.status, JSON.stringify(stored.body)).toBe(201);
      expectDocumented('POST', '/api/images/', stored);
    }
    const refused = await client.upload('/api/images/', { bytes: Buffer.from('not an image at all'), name: 'doc.jpg' });
    expect(refused.status).toBe(400);
    expectDocumented('POST', '/api/images/', refused);
  });
});

describe('imports and the export match the document', () => {
  test('an import: start it, list it, read it, try its failures again, undo it, stop one; the export', async () => {
    const { client } = await signUpUser(server.url, 'docimports');
    const file = Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://example.com/">No image here</A></DL>');
    const started = await client.upload<{ import: { id: number } }>('/api/imports', { bytes: file, name: 'bookmarks.html', type: 'text/html' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expectDocumented('POST', '/api/imports', started);
    const id = started.body.import.id;
    await call(client, 'GET', '/api/imports', { expect: 200 });
    // Its one item fails ("no image"): the import finishes, and retry has something to retry.
    for (let tries = 0; ; tries++) {
      const detail = await call<{ import: { status: string } }>(client, 'GET', '/api/imports/{id}', { params: { id }, expect: 200 });
      if (detail.body.import.status === 'done' || detail.body.import.status === 'failed') break;
      if (tries > 600) throw new Error('the import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await call(client, 'POST', '/api/imports/{id}/retry', { params: { id }, expect: 200 });
    for (let tries = 0; ; tries++) {
      const detail = await client.get<{ import: { status: string } }>(`/api/imports/${id}`);
      if (detail.body.import.status === 'done' || detail.body.import.status === 'failed') break;
      if (tries > 600) throw new Error('the retried import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await call(client, 'POST', '/api/imports/{id}/cancel', { params: { id }, expect: 409 });
    await call(client, 'DELETE', '/api/imports/{id}', { params: { id }, expect: 200 });
    await call(client, 'GET', '/api/imports/{id}', { params: { id }, expect: 404 });
    // A long one, stopped at once (its 2,000 items take many batches).
    const links = Array.from({ length: 2_000 }, (_, n) => `<DT><A HREF="https://example.com/${n}">No image ${n}</A>`).join('');
    const long = await client.upload<{ import: { id: number } }>('/api/imports', { bytes: Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1><DL>${links}</DL>`), name: 'long.html', type: 'text/html' });
    expect(long.status).toBe(202);
    await call(client, 'POST', '/api/imports/{id}/cancel', { params: { id: long.body.import.id }, expect: 200 });
    await call(client, 'GET', '/api/export', { expect: 200 });
  });
});

describe('real error responses match the document', () => {
  test('400 invalid body and invalid id', async () => {
    const { client } = await signUpUser(server.url, 'doc400');
    await call(client, 'POST', '/api/pins/', { json: {}, expect: 400 });
    await call(client, 'POST', '/api/boards/', { json: { name: ' ' }, expect: 400 });
    await call(client, 'POST', '/api/favorites/', { json: { pin_id: 'x' }, expect: 400 });
    await call(client, 'POST', '/api/auth/signup', { json: { email: 'nope' }, expect: 400 });
    await call(client, 'POST', '/api/auth/login', { json: {}, expect: 400 });
    await call(client, 'GET', '/api/pins/{id}', { params: { id: 'abc' }, expect: 400 });
    await call(client, 'DELETE', '/api/comments/{id}', { params: { id: '-1' }, expect: 400 });
    await call(client, 'GET', '/api/comments/pins/{pinId}/comments', { params: { pinId: '1.5' }, expect: 400 });
  });

  test('401 signed out and bad credentials', async () => {
    const anonymous = new ApiClient(server.url);
    await call(anonymous, 'POST', '/api/pins/', { json: pinBody(), expect: 401 });
    await call(anonymous, 'GET', '/api/boards/', { expect: 401 });
    await call(anonymous, 'GET', '/api/favorites/', { expect: 401 });
    await call(anonymous, 'POST', '/api/auth/login', { json: { email: 'demo@pinboard.test', password: 'wrong password' }, expect: 401 });
  });

  test('403 not yours, and missing CSRF token', async () => {
    const { client: alice } = await signUpUser(server.url, 'docalice');
    const { client: bob } = await signUpUser(server.url, 'docbob');
    const pin = await alice.post<Pin>('/api/pins/', pinBody('Alice’s'));
    const board = await alice.post<Board>('/api/boards/', { name: 'Alice’s board' });
    // Someone else's board is not revealed: 404, as for a board that does not exist.
    await call(bob, 'GET', '/api/boards/{id}', { params: { id: board.body.id }, expect: 404 });
    await call(bob, 'PUT', '/api/pins/{id}', { params: { id: pin.body.id }, json: { title: 'Mine now' }, expect: 403 });
    await call(bob, 'DELETE', '/api/pins/{id}', { params: { id: pin.body.id }, expect: 403 });
    await call(alice, 'POST', '/api/pins/', { json: pinBody(), csrf: false, expect: 403 });
    await call(new ApiClient(server.url), 'POST', '/api/auth/signup', { json: { email: 'x@example.test', username: 'xyz', password: 'long enough' }, csrf: false, expect: 403 });
  });

  test('404 unknown ids', async () => {
    const { client } = await signUpUser(server.url, 'doc404');
    await call(client, 'GET', '/api/pins/{id}', { params: { id: 2_000_000_000 }, expect: 404 });
    await call(client, 'GET', '/api/boards/{id}', { params: { id: 2_000_000_000 }, expect: 404 });
    await call(client, 'POST', '/api/favorites/', { json: { pin_id: 2_000_000_000 }, expect: 404 });
    await call(client, 'DELETE', '/api/favorites/{id}', { params: { id: 2_000_000_000 }, expect: 404 });
    await call(client, 'GET', '/api/comments/pins/{pinId}/comments', { params: { pinId: 2_000_000_000 }, expect: 404 });
  });

  test('409 second comment on a pin, taken email', async () => {
    const { client, user } = await signUpUser(server.url, 'doc409');
    const pins = await client.get<{ pins: Pin[] }>('/api/pins/');
    const pinId = pins.body.pins[0]?.id as number;
    await call(client, 'POST', '/api/comments/pins/{pinId}/comments', { params: { pinId }, json: { text: 'First' }, expect: 201 });
    await call(client, 'POST', '/api/comments/pins/{pinId}/comments', { params: { pinId }, json: { text: 'Second' }, expect: 409 });
    await call(new ApiClient(server.url), 'POST', '/api/auth/signup', {
      json: { email: user.email, username: `${user.username.slice(0, 30)}b`, password: 'long enough password' },
      expect: 409,
    });
  });

  test('413 (body over 64 KB) is a documented answer of every operation that takes a body', async () => {
    const { client } = await signUpUser(server.url, 'doc413');
    const fixtures = await ownedFixtures(client);
    const padded = { padding: 'x'.repeat(70_000) };
    const undocumented: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!op.requestBody) continue;
        const upper = method.toUpperCase() as Method;
        const response = await client.request(upper, concretePath(path, fixtures), { json: padded });
        expect(response.status, `${upper} ${path}`).toBe(413);
        if (op.responses['413']) expectDocumented(upper, path, response);
        else undocumented.push(`${upper} ${path}`);
      }
    }
    expect(undocumented, 'operations answering 413 without documenting it').toEqual([]);
  });

  test('429 from the general per-address API limit (it guards every /api call) is documented for GET /api/pins/', async () => {
    await withTestServer({ env: { API_RATE_LIMIT_PER_IP: '2' } }, async (limited) => {
      const client = new ApiClient(limited.url);
      const statuses: number[] = [];
      let response = await client.get('/api/pins/');
      for (let i = 0; i < 3; i++) {
        statuses.push(response.status);
        response = await client.get('/api/pins/');
      }
      expect([...statuses, response.status]).toEqual([200, 200, 429, 429]);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expectDocumented('GET', '/api/pins/', response);
    });
  });
});

describe('the pictures of a page match the document', () => {
  test('a page read, an address the guard refuses, a page that cannot be read', async () => {
    const site = createServer((req, res) => {
      if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Doc</title><meta property="og:image" content="/a.jpg">');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      await withTestServer({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: new URL(origin).port } }, async (other) => {
        const { client } = await signUpUser(other.url, 'docpages');
        const read = (url: string, status: number) => call(client, 'GET', '/api/pages/images', { query: `url=${encodeURIComponent(url)}`, expect: status });
        await read(`${origin}/page`, 200);
        await read('file:///etc/passwd', 400);
        await read(`${origin}/missing`, 422);
      });
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});

describe('the server and the document agree on the routes', () => {
  test('every documented operation exists: real ids, a stranger, an empty body → never the "no route" 404', async () => {
    const { client: owner } = await signUpUser(server.url, 'docowner');
    const { client: stranger } = await signUpUser(server.url, 'docstranger');
    const fixtures = await ownedFixtures(owner);

    // Sanity: a path the API lacks does answer 404, so this test can tell.
    expect((await stranger.get(`/api/pins/${fixtures.pin}/nope`)).status).toBe(404);

    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const upper = method.toUpperCase() as Method;
        // Logout would end the stranger's session; an anonymous visitor may call it too.
        const client = path === '/api/auth/logout' ? new ApiClient(server.url) : stranger;
        const response = await client.request(upper, concretePath(path, fixtures), upper === 'GET' || upper === 'DELETE' ? {} : { json: {} });
        // A 404 may be the resource's own answer (a stranger's board is "not found"), never the router's.
        expect(JSON.stringify(response.body), `${upper} ${path}`).not.toMatch(/No API route/);
        expectDocumented(upper, path, response);
      }
    }
    // Nothing of the owner's was touched by the stranger.
    expect((await owner.get<Pin>(`/api/pins/${fixtures.pin}`)).body).toMatchObject({ title: 'Existing', likes_count: 1 });
    expect((await owner.get<Board>(`/api/boards/${fixtures.board}`)).body.pins).toHaveLength(1);
    expect((await owner.get<{ comments: Comment[] }>(`/api/comments/pins/${fixtures.pin}/comments`)).body.comments).toHaveLength(1);
  });

  test('every documented success status was produced by a real call above', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.keys(op.responses)
          .filter((status) => /^2\d\d$/.test(status))
          .map((status) => `${method.toUpperCase()} ${path} ${status}`),
      ),
    );
    expect(documented.length).toBeGreaterThanOrEqual(SPEC_ROUTES.length);
    expect(documented.filter((entry) => !exercised.has(entry))).toEqual([]);
  });
});
