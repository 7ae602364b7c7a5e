import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import type { TokenCreated } from '../../contract/tokens.ts';
import type { User } from '../../contract/users.ts';
import { ApiClient, type ApiResponse, signUpUser } from '../support/client.ts';
import { type FieldSpec, ROUTES, routeAt, type TestRoute, wrongQueryValues } from '../support/routes.ts';
import { REFUSED_IMAGE_URLS } from '../support/refused-image-urls.ts';
import { tableSnapshot } from '../support/table-snapshot.ts';
import { useTestServer } from '../support/use-test-server.ts';

// docs/operations.md: "Bad input of every kind gets the error shape and changes nothing". Every API
// route (as the server declares it, tests/support/routes.ts) gets malformed bodies, query strings
// and ids from a signed-in user who owns every target, so a 4xx can only come from the input itself;
// every case compares the full contents of every table before and after.

let owner: ApiClient;
let ownerUser: User;
// `user`: a collaborator on the owner's board (DELETE /api/boards/{id}/members/{userId}).
const ids = { pin: 0, board: 0, favorite: 0, comment: 0, user: 0, token: 0, import: 0, link: 0, invite: 0 };

beforeAll(async () => {
  // Failed logins are throttled per account; this file sends many on purpose, and wants 400s, not 429s.
});
const server = useTestServer(() => ({ env: { LOGIN_FAILURES_PER_ACCOUNT: '100000' } }));
beforeAll(async () => {
  const signedUp = await signUpUser(server.url, 'badinput');
  owner = signedUp.client;
  ownerUser = signedUp.user;
  const pin = await owner.post<Pin>('/api/pins/', { title: 'Target pin', imageUrl: 'https://example.com/target.png', description: 'd' });
  const board = await owner.post<Board>('/api/boards/', { name: 'Target board' });
  expect(pin.status).toBe(201);
  expect(board.status).toBe(201);
  expect((await owner.post(`/api/boards/${board.body.id}/pins`, { pin_id: pin.body.id })).status).toBe(201);
  const favorite = await owner.post<Favorite>('/api/favorites/', { pin_id: pin.body.id });
  const comment = await owner.post<Comment>(`/api/comments/pins/${pin.body.id}/comments`, { text: 'Target comment' });
  expect(favorite.status).toBe(201);
  expect(comment.status).toBe(201);
  const collaborator = await signUpUser(server.url, 'badcollab');
  expect((await owner.post(`/api/boards/${board.body.id}/members`, { username: collaborator.user.username })).status).toBe(201);
  // A link of the board (docs/board-sharing.md); GET /api/links/{secret} is given its id, which opens nothing.
  const link = await owner.post<{ link: { id: number } }>(`/api/boards/${board.body.id}/links`, {});
  expect(link.status).toBe(201);
  ids.link = link.body.link.id;
  // An invite link of the owner's (docs/site-access.md).
  const invite = await owner.post<{ invite: { id: number } }>('/api/invites', {});
  expect(invite.status).toBe(201);
  ids.invite = invite.body.invite.id;
  const token = await owner.post<TokenCreated>('/api/tokens', { name: 'Target token', scope: 'read' });
  expect(token.status).toBe(201);
  // An import of one link without an image (it fails "no image": nothing is fetched).
  const imported = await owner.upload<{ import: { id: number } }>('/api/imports', {
    bytes: Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://example.com/">Target import</A></DL>'),
    name: 'bookmarks.html',
  });
  expect(imported.status).toBe(202);
  Object.assign(ids, {
    pin: pin.body.id,
    board: board.body.id,
    favorite: favorite.body.id,
    comment: comment.body.id,
    user: collaborator.user.id,
    token: token.body.token.id,
    import: imported.body.import.id,
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers

const TABLES = ['users', 'pins', 'boards', 'board_pins', 'favorites', 'comments', 'images', 'api_tokens', 'invites'] as const;
type Snapshot = Record<(typeof TABLES)[number], string[]>;

const snapshot = (): Promise<Snapshot> => tableSnapshot(server.server.database.db, TABLES);

const counts = (s: Snapshot) => Object.fromEntries(TABLES.map((t) => [t, s[t].length]));

function expectErrorShape(response: ApiResponse): asserts response is ApiResponse<ErrorBody> {
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = response.body as Record<string, unknown>;
  expect(typeof body).toBe('object');
  // Sign-in and sign-up errors also carry their field messages at the top level
  // (docs/tokens-and-capture.md): only those keys, each the same as in `fields`.
  const lifted = Object.keys(body).filter((key) => !['errors', 'fields', 'message'].includes(key));
  expect(Object.keys(body)).toEqual(expect.arrayContaining(['errors', 'fields', 'message']));
  for (const key of lifted) {
    expect(['email', 'password', 'credential', 'username']).toContain(key);
    expect(body[key]).toBe((body.fields as Record<string, unknown>)[key]);
  }
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  expect(Array.isArray(body.errors)).toBe(true);
  const errors = body.errors as unknown[];
  expect(errors.length).toBeGreaterThan(0);
  for (const item of errors) expect(typeof item).toBe('string');
  expect(typeof body.fields === 'object' && body.fields !== null && !Array.isArray(body.fields)).toBe(true);
  for (const value of Object.values(body.fields as object)) expect(typeof value).toBe('string');
}

interface Expectation {
  /** Exact status, or a list of acceptable ones; default: any 4xx. */
  status?: number | number[];
  /** Messages that must all be in `errors`. */
  errors?: string[];
  /** Inputs that must have a message in `fields`. */
  fields?: string[];
}

/** Sends the request and checks: a 4xx (as expected), the error shape, and no row changed. */
async function expectRejected(send: () => Promise<ApiResponse>, expectation: Expectation = {}): Promise<ApiResponse<ErrorBody>> {
  const before = await snapshot();
  const response = await send();
  const after = await snapshot();
  const detail = `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
  if (expectation.status === undefined) {
    expect(response.status, detail).toBeGreaterThanOrEqual(400);
    expect(response.status, detail).toBeLessThan(500);
  } else if (Array.isArray(expectation.status)) {
    expect(expectation.status, detail).toContain(response.status);
  } else {
    expect(response.status, detail).toBe(expectation.status);
  }
  expectErrorShape(response);
  for (const message of expectation.errors ?? []) expect(response.body.errors).toContain(message);
  for (const field of expectation.fields ?? []) expect(typeof response.body.fields[field], `fields.${field} in ${detail}`).toBe('string');
  expect(counts(after)).toEqual(counts(before));
  expect(after).toEqual(before);
  return response;
}

type Target = keyof typeof ids;

let n = 0;
const fresh = () => `bi${process.pid}x${Date.now() % 1e7}x${++n}`;

/**
 * A value each input accepts, by its name: a body made of them is one its route would accept, or
 * refuse only for business reasons (a login for an account nobody has).
 */
const VALID: Record<string, () => unknown> = {
  email: () => `${fresh()}@example.test`,
  username: fresh,
  password: () => 'long enough password',
  firstName: () => 'Bad',
  title: () => 'New pin',
  imageUrl: () => 'https://example.com/new.png',
  description: () => 'fine',
  name: () => 'Another board',
  text: () => 'Another comment',
  pin_id: () => ids.pin,
  // Merging duplicates (docs/duplicates.md): well-formed, naming no pin or merge of the owner's.
  keep: () => ids.pin,
  merge: () => [ids.pin + 1_000_000],
  mergeId: () => 1_000_000,
  sourceUrl: () => 'https://example.com/page',
  scope: () => 'read',
  expiresInDays: () => 30,
  userId: () => ids.user,
  // Account settings and resets (docs/accounts.md): well-formed, never the caller's password or a live link.
  currentPassword: () => 'not the password at all',
  newPassword: () => 'another long password',
  token: () => 'A'.repeat(43),
};

/** Inputs where a NUL character can be stored safely: hashed passwords never reach a text column. */
const NUL_HARMLESS = new Set(['password']);

/** Numbers just outside the field's range. */
function outOfRange(spec: FieldSpec): number[] {
  return [...(spec.minimum !== undefined ? [spec.minimum - 1] : []), ...(spec.maximum !== undefined ? [spec.maximum + 1] : [])];
}

function validBody(route: TestRoute): Record<string, unknown> {
  const entries = Object.entries(route.body ?? {}).flatMap(([field, spec]): Array<[string, unknown]> => {
    const value = VALID[field];
    if (value) return [[field, value()]];
    if (spec.required) throw new Error(`${route.label} reads "${field}": give it a valid value in VALID`);
    return [];
  });
  return Object.fromEntries(entries);
}

/** The route's path with owned ids, except the overrides (inserted as they are, unencoded). */
function pathOf(route: TestRoute, overrides: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const target = route.params[name] as string;
    if (!(target in ids)) throw new Error(`${route.label}: {${name}} names a ${target}; create one the owner holds in beforeAll`);
    return overrides[name] ?? String(ids[target as Target]);
  });
}

function send(route: TestRoute, options: { path?: string; json?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
  const { path = pathOf(route), ...rest } = options;
  return owner.request(route.method, path, rest);
}

/** Sends bytes the client helper cannot (binary, streamed), with the owner's cookies and CSRF token. */
async function sendRaw(route: TestRoute, body: BodyInit, headers: Record<string, string>): Promise<ApiResponse> {
  const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(server.url + pathOf(route), {
    method: route.method,
    headers: { cookie, 'x-xsrf-token': owner.csrfToken ?? '', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('application/json');
  return { status: response.status, body: json ? (JSON.parse(text) as unknown) : text, headers: response.headers };
}

const bodyRoutes = ROUTES.filter((r): r is TestRoute & { body: NonNullable<TestRoute['body']> } => r.body !== undefined);
const queryRoutes = ROUTES.filter((r): r is TestRoute & { query: NonNullable<TestRoute['query']> } => r.query !== undefined);
const paramRoutes = ROUTES.filter((r) => Object.keys(r.params).length > 0);
const nonGetRoutes = ROUTES.filter((r) => r.method !== 'GET');

// ---------------------------------------------------------------------------------------------

describe('ids in the path', () => {
  // Not numbers at all, or numbers that are not positive whole numbers: invalid input → 400.
  const malformed = ['abc', '-1', '1.5', '1e3', '0x1F', '+1', 'NaN', 'Infinity', '%201', '1%00', '%zz', '1;drop table pins'];
  // Well-formed but impossible ids (zero, beyond any id column): invalid (400) or unknown (404).
  const impossible = ['0', '99999999999999999999', '2147483648', '9007199254740993'];

  for (const route of paramRoutes) {
    // A link's secret is not an id: any malformed one is 404 like an unknown one (tests/api/board-links.test.ts).
    for (const param of Object.keys(route.params).filter((name) => name !== 'secret')) {
      describe(`${route.label} {${param}}`, () => {
        for (const bad of malformed) {
          test(`${JSON.stringify(bad)} → 400`, async () => {
            await expectRejected(() => send(route, { path: pathOf(route, { [param]: bad }), json: route.body && validBody(route) }), { status: 400 });
          });
        }
        for (const bad of impossible) {
          test(`${bad} → 400 or 404`, async () => {
            await expectRejected(() => send(route, { path: pathOf(route, { [param]: bad }), json: route.body && validBody(route) }), { status: [400, 404] });
          });
        }
      });
    }
  }
});

describe('request bodies', () => {
  const malformedJson = ['{', '{"title": }', "{'title': 'x'}", '{"a": 1,}', 'undefined', 'NaN', '{"a": "\\x41"}', '\u0000{}', '{}}'];
  const nonObjects = ['null', '[]', '"a string"', '42', 'true', '[[[[[[[[]]]]]]]]'];

  for (const route of bodyRoutes) {
    const fields = route.body;
    describe(route.label, () => {
      for (const raw of malformedJson) {
        test(`malformed JSON ${JSON.stringify(raw)} → 400`, async () => {
          await expectRejected(() => send(route, { rawBody: raw }), { status: 400 });
        });
      }

      // A body of optional inputs only (POST /api/invites) takes {}, and an empty body, which express.json reads as {}.
      const required = Object.entries(fields)
        .filter(([, spec]) => spec.required)
        .map(([name]) => name);
      if (required.length > 0) {
        test('empty body with a JSON content type → 400', async () => {
          await expectRejected(() => send(route, { rawBody: '' }), { status: 400 });
        });
      }

      for (const raw of nonObjects) {
        test(`JSON ${raw} instead of an object → 400`, async () => {
          await expectRejected(() => send(route, { rawBody: raw }), { status: 400 });
        });
      }

      test('an array holding a valid body → 400', async () => {
        await expectRejected(() => send(route, { json: [validBody(route)] }), { status: 400 });
      });

      if (required.length > 0) {
        test('{} → 400 naming every required input', async () => {
          await expectRejected(() => send(route, { json: {} }), { status: 400, fields: required });
        });
      }

      test('a valid body sent as text/plain → 4xx', async () => {
        await expectRejected(() => send(route, { rawBody: JSON.stringify(validBody(route)), headers: { 'content-type': 'text/plain' } }));
      });

      test('a valid body sent as a urlencoded form → 4xx', async () => {
        const form = new URLSearchParams(Object.entries(validBody(route)).map(([k, v]) => [k, String(v)])).toString();
        await expectRejected(() => send(route, { rawBody: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
      });

      test('a valid body padded past 64 KB → 413', async () => {
        await expectRejected(() => send(route, { json: { ...validBody(route), padding: 'x'.repeat(70_000) } }), { status: 413 });
      });

      test('a streamed (chunked) body past 64 KB → 413', async () => {
        const chunk = new TextEncoder().encode(' '.repeat(16 * 1024));
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 0) controller.enqueue(new TextEncoder().encode(JSON.stringify(validBody(route)).slice(0, -1)));
            if (sent++ < 8) controller.enqueue(chunk);
            else {
              controller.enqueue(new TextEncoder().encode('}'));
              controller.close();
            }
          },
        });
        await expectRejected(() => sendRaw(route, stream, { 'content-type': 'application/json' }), { status: 413 });
      });

      test('a gzip body that inflates past 64 KB → 413', async () => {
        const inflated = JSON.stringify({ ...validBody(route), padding: ' '.repeat(1024 * 1024) });
        await expectRejected(() => sendRaw(route, gzipSync(inflated), { 'content-type': 'application/json', 'content-encoding': 'gzip' }), {
          status: 413,
        });
      });

      for (const [field, spec] of Object.entries(fields)) {
        const wrongTypes: unknown[] =
          spec.type === 'integer'
            ? ['1', `${ids.pin}`, 1.5, -1, 1e20, true, [1], { id: 1 }, null, '', ...outOfRange(spec)]
            : [123, 0, true, false, {}, { value: 'x' }, [], ['x'], ...(spec.required ? [null] : [])];
        for (const value of wrongTypes) {
          test(`${field}: ${JSON.stringify(value)} → 400 with fields.${field}`, async () => {
            const body = { ...validBody(route), [field]: value };
            // ids in a body are only valid as numbers; `${ids.pin}` (a string) must not slip through.
            await expectRejected(() => send(route, { json: body }), { status: 400, fields: [field] });
          });
        }

        if (spec.type === 'integer') {
          // Number literals JSON can carry but a JavaScript number cannot hold exactly.
          for (const literal of ['99999999999999999999', '1e400', '-0', '2147483647.5']) {
            test(`${field}: ${literal} (raw JSON number) → 400 with fields.${field}`, async () => {
              await expectRejected(() => send(route, { rawBody: `{"${field}": ${literal}}` }), { status: 400, fields: [field] });
            });
          }
        }

        if (spec.type === 'string') {
          test(`${field}: 100,000 characters → 413 (body too large)`, async () => {
            await expectRejected(() => send(route, { json: { ...validBody(route), [field]: 'a'.repeat(100_000) } }), { status: 413 });
          });

          test(`${field}: 60,000 characters (under the body limit) → 400 with fields.${field}`, async () => {
            await expectRejected(() => send(route, { json: { ...validBody(route), [field]: 'a'.repeat(60_000) } }), { status: 400, fields: [field] });
          });

          if (spec.maxLength !== undefined) {
            const max = spec.maxLength;
            test(`${field}: ${max + 1} characters (one over its limit) → 400 with fields.${field}`, async () => {
              const value = field === 'email' ? `${'a'.repeat(max - 12)}@example.test` : 'b'.repeat(max + 1);
              await expectRejected(() => send(route, { json: { ...validBody(route), [field]: value } }), { status: 400, fields: [field] });
            });
          }

          if (!NUL_HARMLESS.has(field)) {
            test(`${field}: a NUL character → 4xx, nothing written`, async () => {
              const valid = validBody(route);
              const base = typeof valid[field] === 'string' ? (valid[field] as string) : 'text';
              const value = field === 'imageUrl' ? 'https://example.com/a\u0000b.png' : `${base.slice(0, 4)}\u0000${base.slice(4)}`;
              await expectRejected(() => send(route, { json: { ...valid, [field]: value } }));
            });
          }
        }
      }
    });
  }
});

describe('bodies on routes that take none', () => {
  for (const route of nonGetRoutes.filter((r) => r.body === undefined && r.upload === undefined)) {
    test(`${route.label} with malformed JSON → 400, nothing deleted`, async () => {
      await expectRejected(() => send(route, { rawBody: '{"oops": ' }), { status: 400 });
    });
    test(`${route.label} with a body past 64 KB → 413, nothing deleted`, async () => {
      await expectRejected(() => send(route, { json: { padding: 'x'.repeat(70_000) } }), { status: 413 });
    });
  }
});

/** A multipart body by hand, as bytes a browser would never send. */
const multipart = (boundary: string, parts: string) => ({ rawBody: parts, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
const filePart = (boundary: string, field: string, content: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${content}\r\n`;

describe('uploads (multipart routes)', () => {
  for (const route of ROUTES.filter((r) => r.upload !== undefined)) {
    const field = route.upload?.field as string;
    describe(route.label, () => {
      test('malformed JSON → 400', async () => {
        await expectRejected(() => send(route, { rawBody: '{"oops": ' }), { status: 400 });
      });
      test('a JSON body past 64 KB → 413', async () => {
        await expectRejected(() => send(route, { json: { padding: 'x'.repeat(70_000) } }), { status: 413 });
      });
      test('a JSON body instead of a form → 400 naming the file field', async () => {
        await expectRejected(() => send(route, { json: { [field]: 'aGVsbG8=' } }), { status: 400, fields: [field] });
      });
      const malformed: Array<[string, { rawBody: string; headers: Record<string, string> }]> = [
        ['no boundary parameter', { rawBody: filePart('x', field, 'abc'), headers: { 'content-type': 'multipart/form-data' } }],
        ['a boundary the body does not use', multipart('y', `${filePart('x', field, 'abc')}--x--\r\n`)],
        ['no closing boundary', multipart('x', filePart('x', field, 'abc'))],
        ['a part without a name', multipart('x', '--x\r\nContent-Disposition: form-data; filename="a.jpg"\r\n\r\nabc\r\n--x--\r\n')],
        ['a part without headers', multipart('x', '--x\r\n\r\nabc\r\n--x--\r\n')],
        ['an empty body', multipart('x', '')],
        ['only the closing boundary', multipart('x', '--x--\r\n')],
        ['eleven text fields', multipart('x', `${Array.from({ length: 11 }, (_, i) => `--x\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('')}--x--\r\n`)],
        ['a text field past 64 KB', multipart('x', `--x\r\nContent-Disposition: form-data; name="note"\r\n\r\n${'n'.repeat(70_000)}\r\n--x--\r\n`)],
        ['the file in another field', multipart('x', `${filePart('x', 'other', 'abc')}--x--\r\n`)],
        ['two files', multipart('x', `${filePart('x', field, 'abc')}${filePart('x', field, 'def')}--x--\r\n`)],
        ['a file that is not an image', multipart('x', `${filePart('x', field, 'just some text')}--x--\r\n`)],
        ['an empty file', multipart('x', `${filePart('x', field, '')}--x--\r\n`)],
        ['a JPEG signature and nothing more', multipart('x', `${filePart('x', field, '\xff\xd8\xff\xe0')}--x--\r\n`)],
      ];
      for (const [what, request] of malformed) {
        test(`${what} → 4xx, nothing stored`, async () => {
          await expectRejected(() => send(route, request));
        });
      }
    });
  }
});

describe('image URLs', () => {
  const route = routeAt('POST /api/pins/');
  for (const imageUrl of REFUSED_IMAGE_URLS) {
    test(`${JSON.stringify(imageUrl)} → 400 with fields.imageUrl`, async () => {
      await expectRejected(() => send(route, { json: { title: 'Bad image', imageUrl } }), { status: 400, fields: ['imageUrl'] });
    });
  }
});

describe('usernames', () => {
  const route = routeAt('POST /api/auth/signup');
  // The owner's name in other forms (taken, or looking like it), and names hiding characters.
  const refused: Array<[string, () => string, number]> = [
    ['upper case', () => ownerUser.username.toUpperCase(), 409],
    ['fullwidth (NFKC)', () => ownerUser.username.replace(/^b/, '\uff42'), 409],
    ['dotless ı for i', () => ownerUser.username.replace('i', '\u0131'), 409],
    ['Cyrillic а for a', () => ownerUser.username.replace('a', '\u0430'), 400],
    ['right-to-left override', () => `ab\u202ecd${fresh()}`, 400],
    ['zero-width space', () => `de\u200bmo${fresh()}`, 400],
    ['left-to-right isolate', () => `\u2066${fresh()}`, 400],
    ['a space', () => `new ${fresh()}`, 400],
  ];
  for (const [what, username, status] of refused) {
    test(`${what} → ${status} with fields.username`, async () => {
      await expectRejected(() => send(route, { json: { ...validBody(route), username: username() } }), { status, fields: ['username'] });
    });
  }
});

describe('SPEC validation texts', () => {
  const pins = routeAt('POST /api/pins/');
  const pinEdit = routeAt('PUT /api/pins/{id}');
  const boards = routeAt('POST /api/boards/');
  const rename = routeAt('PATCH /api/boards/{id}');
  const comment = routeAt('POST /api/comments/pins/{pinId}/comments');
  const commentEdit = routeAt('PUT /api/comments/{id}');

  for (const body of [{}, { title: '', imageUrl: '' }, { title: '   ', imageUrl: ' \t ' }, { description: 'only this' }]) {
    test(`POST /api/pins/ ${JSON.stringify(body)} → "Title is required." and "Image URL is required." together`, async () => {
      const res = await expectRejected(() => send(pins, { json: body }), {
        status: 400,
        errors: ['Title is required.', 'Image URL is required.'],
      });
      expect(res.body.fields).toMatchObject({ title: 'Title is required.', imageUrl: 'Image URL is required.' });
    });
  }

  test('PUT /api/pins/{id} with a blank title → "Title is required.", pin unchanged', async () => {
    const res = await expectRejected(() => send(pinEdit, { json: { title: '  ', description: 'changed?' } }), {
      status: 400,
      errors: ['Title is required.'],
    });
    expect(res.body.fields.title).toBe('Title is required.');
  });

  for (const body of [{}, { name: '' }, { name: '    ' }, { name: '\n\t' }]) {
    test(`POST /api/boards/ ${JSON.stringify(body)} → "Board name cannot be empty."`, async () => {
      const res = await expectRejected(() => send(boards, { json: body }), { status: 400, errors: ['Board name cannot be empty.'] });
      expect(res.body.fields.name).toBe('Board name cannot be empty.');
    });
    test(`PATCH /api/boards/{id} ${JSON.stringify(body)} → "Board name cannot be empty."`, async () => {
      await expectRejected(() => send(rename, { json: body }), { status: 400, errors: ['Board name cannot be empty.'] });
    });
  }

  for (const body of [{}, { text: '' }, { text: '   ' }]) {
    test(`POST comment ${JSON.stringify(body)} → "Text is required"`, async () => {
      const res = await expectRejected(() => send(comment, { json: body }), { status: 400, errors: ['Text is required'] });
      expect(res.body.fields.text).toBe('Text is required');
    });
    test(`PUT /api/comments/{id} ${JSON.stringify(body)} → "Text is required"`, async () => {
      await expectRejected(() => send(commentEdit, { json: body }), { status: 400, errors: ['Text is required'] });
    });
  }

  test('a "__proto__" key does not supply a missing title', async () => {
    await expectRejected(() => send(pins, { rawBody: '{"__proto__": {"title": "from the prototype"}, "imageUrl": "https://example.com/p.png"}' }), { status: 400, errors: ['Title is required.'] });
  });
});

describe('unknown API paths and methods', () => {
  for (const path of ['/api/nope', '/api/', '/api/pins/1/nope', '/api/comments/', '/api/users/1', '/api/pins/{id}/comments', '/api/boards/{id}/pins/']) {
    test(`GET ${path} → 404 with the error shape (not the web page)`, async () => {
      await expectRejected(() => owner.get(path.replace('{id}', String(ids.pin))), { status: 404 });
    });
  }
  test('POST /api/nope with a valid CSRF token → 404', async () => {
    await expectRejected(() => owner.post('/api/nope', { a: 1 }), { status: 404 });
  });
  test('DELETE /api/favorites/ (no id) → 404', async () => {
    await expectRejected(() => owner.delete('/api/favorites/'), { status: 404 });
  });
  test('PATCH /api/pins/{id} (a method the path lacks) → 404 or 405, pin unchanged', async () => {
    await expectRejected(() => owner.patch(`/api/pins/${ids.pin}`, { title: 'patched' }), { status: [404, 405] });
  });
  test('PUT /api/boards/{id} (a method the path lacks) → 404 or 405, board unchanged', async () => {
    await expectRejected(() => owner.put(`/api/boards/${ids.board}`, { name: 'put' }), { status: [404, 405] });
  });
});

for (const route of queryRoutes) {
  describe(`${route.label} query string`, () => {
    for (const [field, spec] of Object.entries(route.query)) {
      for (const value of wrongQueryValues(spec)) {
        test(`${field}=${JSON.stringify(value).slice(0, 40)} → 400 with fields.${field}`, async () => {
          const query = new URLSearchParams([value].flat().map((v) => [field, v]));
          await expectRejected(() => send(route, { path: `${pathOf(route)}?${query}`, json: route.body && validBody(route) }), {
            status: 400,
            fields: [field],
          });
        });
      }
    }
  });
}

describe('GET routes ignore query keys they do not read', () => {
  const needsNoInput = (r: TestRoute) => Object.keys(r.params).length === 0 && !Object.values(r.query ?? {}).some((spec) => spec.required);
  for (const route of ROUTES.filter((r) => r.method === 'GET' && needsNoInput(r))) {
    test(`${route.label}?junk → 200, nothing written`, async () => {
      // Logout would end the owner's session; it gets a client of its own.
      const client = route.path === '/api/auth/logout' ? new ApiClient(server.url) : owner;
      const before = await snapshot();
      const res = await client.get(`${route.path}?id=abc&__proto__[x]=1&a[b][c]=d&${'q'.repeat(2000)}=%zz`);
      expect(res.status).toBe(200);
      expect(await snapshot()).toEqual(before);
    });
  }
});

test('after all of it the owner is still signed in and every target is intact', async () => {
  const session = await owner.get<{ user: User | null }>('/api/auth/');
  expect(session.body.user?.id).toBe(ownerUser.id);
  expect((await owner.get<Pin>(`/api/pins/${ids.pin}`)).body).toMatchObject({ title: 'Target pin', description: 'd', likes_count: 1 });
  expect((await owner.get<Board>(`/api/boards/${ids.board}`)).body).toMatchObject({ name: 'Target board', pins: [{ id: ids.pin }] });
  const comments = await owner.get<{ comments: Comment[] }>(`/api/comments/pins/${ids.pin}/comments`);
  expect(comments.body.comments.map((c) => c.text)).toEqual(['Target comment']);
  expect((await owner.get('/healthz')).status).toBe(200);
});
