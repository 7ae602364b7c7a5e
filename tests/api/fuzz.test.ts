import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import { paramNames } from '../../backend/http/route.ts';
import type { Board } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import type { TokenCreated } from '../../contract/tokens.ts';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import type { User } from '../../contract/users.ts';
import { type DemoImage, demoImages, demoImageUrl } from '../../db/demo-catalog.ts';
import { ApiClient, type ApiResponse, signUpUser } from '../support/client.ts';
import { type FieldSpec, ROUTES, targetOf } from '../support/routes.ts';
import { tableSnapshot } from '../support/table-snapshot.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Property-based robustness (docs/operations.md, quality bars): generated bodies, query strings,
// content types, CSRF headers and path ids at every API path (as the server declares them,
// tests/support/routes.ts) with every method, signed in (as the owner of every target) and
// anonymous. Properties: never a 5xx; every 4xx has the error shape and leaves every table exactly
// as it was; the server keeps answering /healthz. About 285 runs in all, so each Vitest project
// stays well under a minute; a failure prints fast-check's seed and shrunk counterexample for
// replay.

let owner: ApiClient;
let ownerUser: User;
let ownerPassword: string;
let anonymous: ApiClient;
// `user`: a collaborator on the owner's board (DELETE /api/boards/{id}/members/{userId}).
const ids = { pin: 0, board: 0, favorite: 0, comment: 0, user: 0, token: 0, import: 0, link: 0, invite: 0 };
let collaboratorName = '';

beforeAll(async () => {
  // Generated login bodies are failed logins; keep the per-account throttle out of the way.
});
const server = useTestServer(() => ({ env: { LOGIN_FAILURES_PER_ACCOUNT: '100000' } }));
beforeAll(async () => {
  const signedUp = await signUpUser(server.url, 'fuzz');
  owner = signedUp.client;
  ownerUser = signedUp.user;
  ownerPassword = signedUp.password;
  anonymous = new ApiClient(server.url);
  await anonymous.get('/api/auth/');
  await ensureTargets();
});

// ---------------------------------------------------------------------------------------------
// Targets and database state

const db = () => server.server.database.db;

async function exists(table: 'pins' | 'boards' | 'favorites' | 'comments' | 'api_tokens' | 'imports' | 'board_links' | 'invites', id: number): Promise<boolean> {
  if (id === 0) return false;
  const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where id = ${id}`.execute(db());
  return rows.length > 0;
}

/** Re-creates whatever a successful generated request removed, so later runs still hit real rows. */
async function ensureTargets(): Promise<void> {
  if (!(await exists('pins', ids.pin))) {
    const pin = await owner.post<Pin>('/api/pins/', { title: 'Fuzz target', imageUrl: 'https://example.com/fuzz.png' });
    expect(pin.status).toBe(201);
    ids.pin = pin.body.id;
  }
  if (!(await exists('boards', ids.board))) {
    const board = await owner.post<Board>('/api/boards/', { name: 'Fuzz board' });
    expect(board.status).toBe(201);
    ids.board = board.body.id;
  }
  expect([200, 201]).toContain((await owner.post(`/api/boards/${ids.board}/pins`, { pin_id: ids.pin })).status);
  if (ids.user === 0) {
    const collaborator = await signUpUser(server.url, 'fuzzcollab');
    ids.user = collaborator.user.id;
    collaboratorName = collaborator.user.username;
  }
  // 409 when still a member.
  expect([201, 409]).toContain((await owner.post(`/api/boards/${ids.board}/members`, { username: collaboratorName })).status);
  if (!(await exists('favorites', ids.favorite))) {
    const favorite = await owner.post<Favorite>('/api/favorites/', { pin_id: ids.pin });
    expect(favorite.status).toBe(201);
    ids.favorite = favorite.body.id;
  }
  if (!(await exists('comments', ids.comment))) {
    const comment = await owner.post<Comment>(`/api/comments/pins/${ids.pin}/comments`, { text: 'Fuzz comment' });
    expect(comment.status).toBe(201);
    ids.comment = comment.body.id;
  }
  if (!(await exists('api_tokens', ids.token))) {
    const token = await owner.post<TokenCreated>('/api/tokens', { name: 'Fuzz token', scope: 'read' });
    expect(token.status).toBe(201);
    ids.token = token.body.token.id;
  }
  // A link of the board (docs/board-sharing.md); `{secret}` is filled with its id, a secret that opens nothing.
  if (!(await exists('board_links', ids.link))) {
    const link = await owner.post<{ link: { id: number } }>(`/api/boards/${ids.board}/links`, {});
    // 409 once generated calls have made the most links a board may have.
    if (link.status === 201) ids.link = link.body.link.id;
  }
  // An invite link of the owner's (docs/site-access.md); 409 once generated calls have made the most one may hold.
  if (!(await exists('invites', ids.invite))) {
    const invite = await owner.post<{ invite: { id: number } }>('/api/invites', {});
    if (invite.status === 201) ids.invite = invite.body.invite.id;
  }
  if (!(await exists('imports', ids.import))) {
    const imported = await owner.upload<{ import: { id: number } }>('/api/imports', {
      bytes: Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF="https://example.com/">Target import</A></DL>'),
      name: 'bookmarks.html',
    });
    expect(imported.status).toBe(202);
    ids.import = imported.body.import.id;
  }
}

/** Generated auth calls may sign the owner out (logout) or in as someone else (a lucky signup). */
async function ensureOwnerSignedIn(): Promise<void> {
  const session = await owner.get<{ user: User | null }>('/api/auth/');
  if (session.body.user?.id === ownerUser.id) return;
  const login = await owner.post('/api/auth/login', { email: ownerUser.email, password: ownerPassword });
  expect(login.status).toBe(200);
}

/** A generated signup may have signed the anonymous client in; it must stay anonymous. */
async function ensureAnonymous(): Promise<void> {
  const session = await anonymous.get<{ user: User | null }>('/api/auth/');
  if (session.body.user !== null) expect((await anonymous.get('/api/auth/logout')).status).toBe(200);
}

const TABLES = ['users', 'pins', 'boards', 'board_pins', 'favorites', 'comments', 'images', 'api_tokens'] as const;

const snapshot = () => tableSnapshot(db(), TABLES);

// ---------------------------------------------------------------------------------------------
// Routes

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** Every API path; each `{param}` names what an owned id points at (targetOf). */
const PATHS = [...new Set(ROUTES.map((route) => route.path))];

/** The method+path pairs the API serves; every other pair must still answer a clean 4xx. */
const ROUTED = new Map(ROUTES.map((route) => [route.label, route]));

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** A path id: the owned target's id (resolved at request time), or anything else. */
const OWNED = { owned: true } as const;
type PathId = typeof OWNED | string;

const pathId: fc.Arbitrary<PathId> = fc.oneof(
  { arbitrary: fc.constant(OWNED), weight: 10 },
  { arbitrary: fc.nat(60).map(String), weight: 2 },
  { arbitrary: fc.integer({ min: -(2 ** 31) - 5, max: 2 ** 31 + 5 }).map(String), weight: 2 },
  { arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String), weight: 1 },
  { arbitrary: fc.double().map(String), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent), weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }).filter((s) => !/[/?#]/.test(s)), weight: 1 },
  { arbitrary: fc.constantFrom('abc', '-1', '1.5', '0', '99999999999999999999', '%zz', '%00', '1%00', '..', '%2F', '1e3'), weight: 2 },
);

/**
 * Characters that break naive handling: NUL and controls, lone surrogates, quotes, escapes, BOM, RTL,
 * zero-width space, a Cyrillic look-alike (е) and a fullwidth letter (ｄ, "d" after NFKC).
 */
const nastyChar = fc.oneof(
  { arbitrary: fc.constantFrom('\u0000', '\u0001', '\u001f'), weight: 4 },
  {
    arbitrary: fc.constantFrom('\ud800', '\udfff', '\\', '"', "'", '%', '\n', '\t', ' ', 'a', 'é', '😀', '\u202e', '\ufeff', '\u200b', '\u0435', '\uff44', '<', '&'),
    weight: 5,
  },
);

/** A picture the app really serves (a same-site image address). */
const LOCAL_IMAGE = demoImageUrl(demoImages()[0] as DemoImage);

const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: nastyChar, maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    '   ',
    '\u0000',
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'ftp://example.com/a.png',
    '//evil.com/x',
    '/\t/evil.com/x',
    'https://example.com/ok.png',
    LOCAL_IMAGE,
    "'; drop table pins; --",
    '\ud800',
    'a@b.c',
  ),
  // Huge strings: some fit under the 64 KB body limit, some do not.
  fc.integer({ min: 1_000, max: 100_000 }).map((length) => 'x'.repeat(length)),
);

const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 1, 1.5, 2_147_483_647, 2_147_483_648, 1e20, Number.MAX_SAFE_INTEGER + 2, -1e308),
);

const scalar = fc.oneof(weirdString, weirdNumber, fc.boolean(), fc.constant(null));

const { value: nestedValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, scalar, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 })),
}));

const deepArray = fc.integer({ min: 1, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth));
const deepObject = fc.integer({ min: 1, max: 5_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** The names the API reads, so the validators (not just the "not an object" check) get exercised. */
const ALL_FIELDS: Record<string, FieldSpec> = Object.assign({}, ...ROUTES.map((route) => route.body ?? {}));
const FIELD_NAMES = Object.keys(ALL_FIELDS);

/** Objects with API field names and values of any type. */
const fieldsObject = fc.dictionary(fc.constantFrom(...FIELD_NAMES), nestedValue, { maxKeys: 6 });

/** A valid value, or the same with a few nasty characters spliced in, or any scalar at all. */
function aroundValid(...valid: string[]): fc.Arbitrary<unknown> {
  const base = fc.constantFrom(...valid);
  const spliced = fc.tuple(base, fc.string({ unit: nastyChar, minLength: 1, maxLength: 3 }), fc.nat()).map(([value, extra, at]) => {
    const i = at % (value.length + 1);
    return value.slice(0, i) + extra + value.slice(i);
  });
  return fc.oneof({ arbitrary: base, weight: 2 }, { arbitrary: spliced, weight: 3 }, { arbitrary: scalar, weight: 2 });
}

/** Per field name: a plausible value, a plausible value with nasty characters, or anything. */
const plausibleFields: Record<string, fc.Arbitrary<unknown>> = {
  title: aroundValid('A title', ' padded '),
  imageUrl: aroundValid(
    'https://example.com/p.png',
    LOCAL_IMAGE,
    '/media/ab/p.webp',
    // Addresses that would act on whoever sees the pin, spelled the ways parsers disagree on.
    '/api/auth/logout',
    '/seed-images/../api/auth/logout',
    '/seed-images/%2e%2e/api/auth/logout',
    '/seed-images/..%2Fapi/auth/logout',
    '\\api\\auth\\logout',
    '/%61pi/auth/logout',
  ),
  description: aroundValid('words'),
  name: aroundValid('A board'),
  text: aroundValid('A comment'),
  pin_id: fc.oneof(fc.constant(OWNED), weirdNumber, scalar),
  email: aroundValid('fuzzed@example.test', 'not-an-email'),
  username: aroundValid('fuzzed_user', 'ｆｕｚｚｅｄ'),
  password: aroundValid('long enough password'),
  firstName: aroundValid('Fuzz'),
};

/** A field this file has no plausible values for yet is fuzzed by its type. */
function fieldArbitrary(name: string, spec: FieldSpec): fc.Arbitrary<unknown> {
  const plausible = plausibleFields[name];
  if (plausible) return plausible;
  if (spec.type === 'integer' || spec.type === 'number') return fc.oneof(weirdNumber, scalar);
  if (spec.enum?.length) return fc.oneof(fc.constantFrom(...spec.enum), scalar);
  return aroundValid('text');
}

/** Nearly valid bodies over the given fields (any of them may be missing). */
function plausibleObject(fields: Record<string, FieldSpec>): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, fieldArbitrary(name, spec)]));
  return fc.record(model, { requiredKeys: [] });
}

type BodySpec = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };

const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value): BodySpec => ({ kind: 'json', value }));
const raw = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((text): BodySpec => ({ kind: 'raw', text }));

/** Bodies of every kind; most of them objects shaped like what the route reads (when it reads any). */
function bodySpec(routeFields: Record<string, FieldSpec> | undefined): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    { arbitrary: json(plausibleObject(routeFields ?? ALL_FIELDS)), weight: routeFields ? 12 : 4 },
    { arbitrary: fc.constant<BodySpec>({ kind: 'none' }), weight: 1 },
    { arbitrary: json(fc.jsonValue()), weight: 2 },
    { arbitrary: json(fc.anything({ maxDepth: 3 })), weight: 1 },
    { arbitrary: json(fieldsObject), weight: 3 },
    { arbitrary: json(fc.array(nestedValue, { maxLength: 5 })), weight: 1 },
    { arbitrary: raw(fc.oneof(fc.string(), fc.json(), deepArray, deepObject)), weight: 2 },
    // Truncated JSON.
    { arbitrary: raw(fc.json().map((text) => text.slice(0, Math.max(1, text.length - 1)))), weight: 1 },
  );
}

const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/merge-patch+json',
      'multipart/form-data; boundary=x',
    ),
    weight: 2,
  },
);

type CsrfMode = 'valid' | 'missing' | 'garbage';
const csrfMode = fc.oneof({ arbitrary: fc.constant<CsrfMode>('valid'), weight: 12 }, { arbitrary: fc.constantFrom<CsrfMode>('missing', 'garbage'), weight: 2 });

/** A value of the type a query field reads, near and past its bounds. */
function queryValue(spec: FieldSpec): fc.Arbitrary<string> {
  if (spec.enum?.length) return fc.constantFrom(...spec.enum, '', 'other');
  if (spec.type === 'integer' || spec.type === 'number') {
    return fc.integer({ min: (spec.minimum ?? -10) - 2, max: (spec.maximum ?? 1000) + 2 }).map(String);
  }
  return fc.string({ maxLength: (spec.maxLength ?? 20) + 2 });
}

/** Query strings for a route that reads one: its keys (sometimes repeated, sometimes nasty) and junk keys. */
function queryArbitrary(fields: Record<string, FieldSpec> | undefined): fc.Arbitrary<string> {
  if (!fields) return fc.constant('');
  const small = fc.oneof(fc.string({ unit: nastyChar, maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 40 }));
  const model = Object.fromEntries(
    Object.entries(fields).map(([name, spec]) => [
      name,
      fc.oneof({ arbitrary: queryValue(spec).map((v) => [v]), weight: 4 }, fc.array(fc.oneof(queryValue(spec), small), { minLength: 1, maxLength: 3 })),
    ]),
  );
  const junk = fc.dictionary(
    fc.string({ maxLength: 8 }),
    small.map((v) => [v]),
    { maxKeys: 2 },
  );
  return fc
    .tuple(fc.record(model, { requiredKeys: [] }), junk)
    .map(([known, extra]) => new URLSearchParams(Object.entries({ ...extra, ...known }).flatMap(([k, values]) => (values ?? []).map((v) => [k, v]))).toString());
}

interface Generated {
  ids: PathId[];
  query: string;
  body: BodySpec;
  contentType: string;
  csrf: CsrfMode;
}

function requestArbitrary(path: string, method: Method): fc.Arbitrary<Generated> {
  const route = ROUTED.get(`${method} ${path}`);
  return fc.record({
    ids: fc.tuple(...paramNames(path).map(() => pathId)),
    query: queryArbitrary(route?.query),
    body: method === 'GET' ? fc.constant<BodySpec>({ kind: 'none' }) : bodySpec(route?.body),
    contentType,
    csrf: csrfMode,
  });
}

// ---------------------------------------------------------------------------------------------
// Sending and checking

/** JSON.stringify, with the owned-id token replaced by the current pin id. */
function encodeBody(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) => (v === OWNED ? ids.pin : v));
}

function concretePath(template: string, generated: Generated): string {
  let i = 0;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = generated.ids[i++] ?? OWNED;
    if (id !== OWNED) return id as string;
    const target = targetOf(template, name);
    if (!(target in ids)) throw new Error(`${template}: {${name}} names a ${target}; have ensureTargets create one`);
    return String(ids[target as keyof typeof ids]);
  });
  return generated.query ? `${path}?${generated.query}` : path;
}

function errorShapeProblem(response: ApiResponse): string | undefined {
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return 'not JSON';
  const body = response.body as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not an object';
  // Sign-in and sign-up errors also carry their field messages at the top level (docs/tokens-and-capture.md).
  const lifted = Object.keys(body).filter((key) => !['errors', 'fields', 'message'].includes(key));
  const fieldsOf = (body.fields ?? {}) as Record<string, unknown>;
  if (Object.keys(body).length - lifted.length !== 3) return `keys ${Object.keys(body).join()}`;
  if (!lifted.every((key) => ['email', 'password', 'credential', 'username'].includes(key) && body[key] === fieldsOf[key])) return `keys ${Object.keys(body).join()}`;
  if (typeof body.message !== 'string' || body.message === '') return 'message';
  if (!Array.isArray(body.errors) || body.errors.length === 0 || !body.errors.every((e) => typeof e === 'string')) return 'errors';
  const fields = body.fields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return 'fields';
  if (!Object.values(fields).every((v) => typeof v === 'string')) return 'fields values';
  return undefined;
}

async function runOne(as: 'owner' | 'anonymous', template: string, method: Method, generated: Generated): Promise<void> {
  const client = as === 'owner' ? owner : anonymous;
  const path = concretePath(template, generated);
  const headers: Record<string, string> = {};
  if (generated.csrf === 'valid' && client.csrfToken) headers['x-xsrf-token'] = client.csrfToken;
  if (generated.csrf === 'garbage') headers['x-xsrf-token'] = 'garbage.token';
  let rawBody: string | undefined;
  if (generated.body.kind === 'json') rawBody = encodeBody(generated.body.value);
  if (generated.body.kind === 'raw') rawBody = generated.body.text;
  if (rawBody !== undefined) headers['content-type'] = generated.contentType;

  const before = await snapshot();
  const response = await client.request(method, path, { rawBody, headers, csrf: false });
  const description = `${as} ${method} ${path} ${rawBody === undefined ? '(no body)' : `${headers['content-type']} ${rawBody.slice(0, 200)}`} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;

  expect(response.status, description).toBeLessThan(500);
  if (response.status >= 400) {
    expect(errorShapeProblem(response), description).toBeUndefined();
    expect(await snapshot(), description).toEqual(before);
  }
  if (path.startsWith('/api/auth/')) {
    if (as === 'owner') await ensureOwnerSignedIn();
    else await ensureAnonymous();
  }
  if (method !== 'GET' && response.status < 300) await ensureTargets();
}

async function fuzz(template: string, method: Method, as: 'owner' | 'anonymous', numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(requestArbitrary(template, method), (generated) => runOne(as, template, method, generated)),
    { numRuns, plugins: [fc.interruptAfterTimeLimit(8_000)] },
  );
}

// ---------------------------------------------------------------------------------------------

describe.each(PATHS)('%s', (template) => {
  test.each(METHODS)('%s: no 5xx, error shape and no write on every 4xx', async (method) => {
    const route = ROUTED.get(`${method} ${template}`);
    // Most runs go where the server does real work: routed pairs, above all those that read input.
    const ownerRuns = route?.body || route?.query || route?.upload ? 8 : route ? 5 : 1;
    await fuzz(template, method, 'owner', ownerRuns);
    await fuzz(template, method, 'anonymous', route ? 2 : 1);
    expect((await anonymous.get('/healthz')).status).toBe(200);
  });
});

test('no stored pin has an image address that could act: every same-site one is an image path', async () => {
  const host = new URL(server.url).host;
  const rows = await db().selectFrom('pins').select(['id', 'image_url']).execute();
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.filter((row) => !isAllowedImageUrl(row.image_url, [host]))).toEqual([]);
});

test('afterwards the server still answers: /healthz, /readyz, and a signed-in write', async () => {
  expect((await new ApiClient(server.url).get('/healthz')).status).toBe(200);
  expect((await new ApiClient(server.url).get('/readyz')).status).toBe(200);
  await ensureOwnerSignedIn();
  const pin = await owner.post<Pin>('/api/pins/', { title: 'Still alive', imageUrl: 'https://example.com/alive.png' });
  expect(pin.status).toBe(201);
  expect((await anonymous.get<Pin>(`/api/pins/${pin.body.id}`)).body.title).toBe('Still alive');
});
