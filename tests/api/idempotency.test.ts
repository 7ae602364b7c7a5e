import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Board, BoardList } from '../../contract/boards.ts';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { ChangeData, ChangeEventName } from '../../contract/events.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, type ApiResponse, signUpUser, sameSessionOn } from '../support/client.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Idempotent creates: POST /api/pins/, /api/boards/ and /api/comments/pins/{pinId}/comments honour an
// Idempotency-Key header (per user, 24 hours, stored in the database so every instance agrees).

const INVALID = 'Idempotency-Key must be 1 to 255 visible ASCII characters.';
const REUSED = 'This Idempotency-Key was already used for a different request.';

const server = useTestServer();

const db = () => server.server.database.db;

function post<T>(client: ApiClient, path: string, json: unknown, key?: string): Promise<ApiResponse<T>> {
  return client.request<T>('POST', path, { json, ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }) });
}

const pinBody = (title: string) => ({ title, imageUrl: 'https://example.com/idem.png', description: 'Once only.' });

/** Counts the changes named `event` that the in-process bus publishes, from now on. */
function recordEvents<E extends ChangeEventName>(event: E): { payloads: Array<ChangeData<E>>; stop(): void } {
  const payloads: Array<ChangeData<E>> = [];
  const stop = server.server.events.onChange(event, (payload) => payloads.push(payload));
  return { payloads, stop };
}

async function pinsTitled(title: string): Promise<number> {
  const rows = await db().selectFrom('pins').select('id').where('title', '=', title).execute();
  return rows.length;
}

async function keyRows(userId: number): Promise<Array<{ key: string; status_code: number }>> {
  return db().selectFrom('idempotency_keys').select(['key', 'status_code']).where('user_id', '=', userId).orderBy('key').execute();
}

function expectReplay(first: ApiResponse, again: ApiResponse): void {
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.headers.get('content-type')).toMatch(/^application\/json/);
  // Same values in the same key order: the stored answer is the one that was sent.
  expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
}

function expectError(response: ApiResponse, status: number, message: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect((response.body as ErrorBody).message).toBe(message);
  expect((response.body as ErrorBody).errors).toEqual([message]);
}

describe('a retry with the same key returns the first result', () => {
  test('pins: same pin (id, 201, Idempotent-Replayed: true), one row, one pin.created event', async () => {
    const { client, user } = await signUpUser(server.url, 'idempins');
    const title = `Idempotent pin ${randomUUID()}`;
    const key = randomUUID();
    const events = recordEvents('pin:created');
    try {
      const first = await post<Pin>(client, '/api/pins/', pinBody(title), key);
      const again = await post<Pin>(client, '/api/pins/', pinBody(title), key);
      const third = await post<Pin>(client, '/api/pins/', pinBody(title), key);
      expectReplay(first, again);
      expectReplay(first, third);
      expect(first.body).toMatchObject({ title, user_id: user.id });
      expect(await pinsTitled(title)).toBe(1);
      expect(events.payloads.filter((p) => p.pin.id === first.body.id)).toHaveLength(1);
      expect(events.payloads.filter((p) => p.pin.title === title)).toHaveLength(1);
      expect(await keyRows(user.id)).toEqual([{ key, status_code: 201 }]);
    } finally {
      events.stop();
    }
  });

  test('boards: same board, listed once, one board.created event', async () => {
    const { client } = await signUpUser(server.url, 'idemboards');
    const key = randomUUID();
    const events = recordEvents('board:created');
    try {
      const first = await post<Board>(client, '/api/boards/', { name: 'Trips' }, key);
      const again = await post<Board>(client, '/api/boards/', { name: 'Trips' }, key);
      expectReplay(first, again);
      const list = await client.get<BoardList>('/api/boards/');
      expect(list.body.boards).toEqual([first.body]);
      expect(events.payloads.filter((p) => p.board.id === first.body.id)).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  test('comments: same comment, listed once, one comment.created event', async () => {
    const { client: owner } = await signUpUser(server.url, 'idemowner');
    const pin = (await post<Pin>(owner, '/api/pins/', pinBody('Commented'))).body;
    const { client } = await signUpUser(server.url, 'idemcomments');
    const key = randomUUID();
    const events = recordEvents('comment:created');
    try {
      const path = `/api/comments/pins/${pin.id}/comments`;
      const first = await post<Comment>(client, path, { text: 'Nice' }, key);
      const again = await post<Comment>(client, path, { text: 'Nice' }, key);
      // Without the key the retry would be a second comment on the pin: a 409.
      expectReplay(first, again);
      const list = await client.get<CommentList>(path);
      expect(list.body.comments).toEqual([first.body]);
      expect(events.payloads).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  test('the same input written differently (spaces trimmed by validation, keys reordered) is the same request', async () => {
    const { client } = await signUpUser(server.url, 'idemcanon');
    const title = `Canonical ${randomUUID()}`;
    const key = randomUUID();
    const first = await post<Pin>(client, '/api/pins/', { title, imageUrl: 'https://example.com/c.png' }, key);
    const again = await post<Pin>(client, '/api/pins/', { imageUrl: 'https://example.com/c.png', description: null, title: `  ${title} ` }, key);
    expectReplay(first, again);
    expect(await pinsTitled(title)).toBe(1);
  });

  test('the stored answer stands even after the resource changed (it is the first result, not a fresh read)', async () => {
    const { client } = await signUpUser(server.url, 'idemstale');
    const key = randomUUID();
    const first = await post<Board>(client, '/api/boards/', { name: 'Before' }, key);
    expect((await client.patch(`/api/boards/${first.body.id}`, { name: 'After' })).status).toBe(200);
    expectReplay(first, await post<Board>(client, '/api/boards/', { name: 'Before' }, key));
  });

  test('without a key nothing changes: two posts are two pins', async () => {
    const { client, user } = await signUpUser(server.url, 'idemnone');
    const title = `No key ${randomUUID()}`;
    const a = await post<Pin>(client, '/api/pins/', pinBody(title));
    const b = await post<Pin>(client, '/api/pins/', pinBody(title));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(await pinsTitled(title)).toBe(2);
    expect(await keyRows(user.id)).toEqual([]);
  });
});

describe('keys are per user and per request', () => {
  test('another user with the same key creates their own pin', async () => {
    const alice = await signUpUser(server.url, 'idemalice');
    const bob = await signUpUser(server.url, 'idembob');
    const key = 'shared-key-1';
    const title = `Shared key ${randomUUID()}`;
    const a = await post<Pin>(alice.client, '/api/pins/', pinBody(title), key);
    const b = await post<Pin>(bob.client, '/api/pins/', pinBody(title), key);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(a.body.user_id).toBe(alice.user.id);
    expect(b.body.user_id).toBe(bob.user.id);
    expect(a.body.id).not.toBe(b.body.id);
    expect(await pinsTitled(title)).toBe(2);
  });

  test('the same key with a different body, path or operation → 422 and nothing created', async () => {
    const { client: owner } = await signUpUser(server.url, 'idemother');
    const otherPin = (await post<Pin>(owner, '/api/pins/', pinBody('Other'))).body;
    const { client, user } = await signUpUser(server.url, 'idem422');
    const pin = (await post<Pin>(client, '/api/pins/', pinBody('Mine'))).body;
    const key = randomUUID();
    const title = `First use ${randomUUID()}`;
    expect((await post(client, '/api/pins/', pinBody(title), key)).status).toBe(201);

    expectError(await post(client, '/api/pins/', pinBody(`${title} (changed)`), key), 422, REUSED);
    expectError(await post(client, '/api/boards/', { name: 'Board' }, key), 422, REUSED);

    const commentKey = randomUUID();
    expect((await post(client, `/api/comments/pins/${pin.id}/comments`, { text: 'Hi' }, commentKey)).status).toBe(201);
    expectError(await post(client, `/api/comments/pins/${pin.id}/comments`, { text: 'Hello' }, commentKey), 422, REUSED);
    expectError(await post(client, `/api/comments/pins/${otherPin.id}/comments`, { text: 'Hi' }, commentKey), 422, REUSED);

    expect(await pinsTitled(`${title} (changed)`)).toBe(0);
    expect((await client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
    expect((await client.get<CommentList>(`/api/comments/pins/${otherPin.id}/comments`)).body.comments).toEqual([]);
    expect((await keyRows(user.id)).map((r) => r.status_code)).toEqual([201, 201]);
    // The original request still replays.
    expect((await post(client, '/api/pins/', pinBody(title), key)).headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('header validation', () => {
  test('empty, too long, non-ASCII, spaces and control characters → 400 in the error shape; nothing stored', async () => {
    const { client, user } = await signUpUser(server.url, 'idem400');
    const title = `Bad key ${randomUUID()}`;
    const utf8AsBytes = Buffer.from('ключ', 'utf8').toString('latin1');
    const bad = ['', 'k'.repeat(256), 'clé', utf8AsBytes, 'two words', 'tab\there'];
    for (const key of bad) {
      const res = await post<ErrorBody>(client, '/api/pins/', pinBody(title), key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body).toEqual({ message: INVALID, errors: [INVALID], fields: { 'Idempotency-Key': INVALID } });
      const board = await post<ErrorBody>(client, '/api/boards/', { name: 'B' }, key);
      expect(board.status, JSON.stringify(key)).toBe(400);
    }
    expect(await pinsTitled(title)).toBe(0);
    expect((await client.get<BoardList>('/api/boards/')).body.boards).toEqual([]);
    expect(await keyRows(user.id)).toEqual([]);
  });

  test('1 and 255 visible ASCII characters are fine', async () => {
    const { client } = await signUpUser(server.url, 'idemok');
    const longest = Array.from({ length: 255 }, (_, i) => String.fromCharCode(0x21 + (i % 94))).join('');
    for (const key of ['x', longest, '~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}']) {
      const title = `Good key ${randomUUID()}`;
      const first = await post<Pin>(client, '/api/pins/', pinBody(title), key);
      expectReplay(first, await post<Pin>(client, '/api/pins/', pinBody(title), key));
    }
  });

  test('signed out → 401 first; a bad body → its own 400 first; neither stores anything', async () => {
    const anonymous = new ApiClient(server.url);
    const unauthorized = await post<ErrorBody>(anonymous, '/api/pins/', pinBody('Anon'), '');
    expectError(unauthorized, 401, 'You must be signed in to do that.');
    const { client, user } = await signUpUser(server.url, 'idembody');
    const key = randomUUID();
    const badBody = await post<ErrorBody>(client, '/api/pins/', { title: ' ', imageUrl: 'https://example.com/x.png' }, key);
    expectError(badBody, 400, 'Title is required.');
    const both = await post<ErrorBody>(client, '/api/pins/', { title: ' ' }, 'bad key');
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual(['Title is required.', 'Image URL is required.']);
    expect(await keyRows(user.id)).toEqual([]);
    // The key was not used up by the refused request.
    expect((await post(client, '/api/pins/', pinBody('Now valid'), key)).status).toBe(201);
  });
});

describe('failed creates store nothing', () => {
  test('comment on an unknown pin → 404, no record; the same key then works for a real request', async () => {
    const { client, user } = await signUpUser(server.url, 'idem404');
    const key = randomUUID();
    const events = recordEvents('comment:created');
    try {
      expectError(await post(client, '/api/comments/pins/2000000000/comments', { text: 'Hello?' }, key), 404, 'Pin not found.');
      expectError(await post(client, '/api/comments/pins/2000000000/comments', { text: 'Hello?' }, key), 404, 'Pin not found.');
      expect(await keyRows(user.id)).toEqual([]);
      const pin = (await post<Pin>(client, '/api/pins/', pinBody('Exists'))).body;
      const first = await post<Comment>(client, `/api/comments/pins/${pin.id}/comments`, { text: 'Hello?' }, key);
      expectReplay(first, await post<Comment>(client, `/api/comments/pins/${pin.id}/comments`, { text: 'Hello?' }, key));
      expect(events.payloads).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  test('a 409 (second comment on a pin) is not stored: a retry runs again and succeeds once the conflict is gone', async () => {
    const { client, user } = await signUpUser(server.url, 'idem409');
    const pin = (await post<Pin>(client, '/api/pins/', pinBody('Conflicted'))).body;
    const path = `/api/comments/pins/${pin.id}/comments`;
    const earlier = await post<Comment>(client, path, { text: 'Earlier' });
    const key = randomUUID();
    const events = recordEvents('comment:created');
    try {
      expectError(await post(client, path, { text: 'Later' }, key), 409, 'You have already commented on this pin.');
      expect(await keyRows(user.id)).toEqual([]);
      expect((await client.delete(`/api/comments/${earlier.body.id}`)).status).toBe(200);
      const retried = await post<Comment>(client, path, { text: 'Later' }, key);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(events.payloads.map((p) => p.comment.id)).toEqual([retried.body.id]);
    } finally {
      events.stop();
    }
  });
});

describe('concurrency and expiry', () => {
  test('8 simultaneous requests with one key → one pin, every answer carries its id, one event', async () => {
    const { client } = await signUpUser(server.url, 'idemrace');
    await client.get('/api/auth/'); // CSRF token in hand before the burst
    const title = `Raced ${randomUUID()}`;
    const key = randomUUID();
    const events = recordEvents('pin:created');
    try {
      const responses = await Promise.all(Array.from({ length: 8 }, () => post<Pin>(client, '/api/pins/', pinBody(title), key)));
      expect(responses.map((r) => r.status)).toEqual(Array<number>(8).fill(201));
      expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
      expect(responses.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
      expect(await pinsTitled(title)).toBe(1);
      expect(events.payloads.filter((p) => p.pin.title === title)).toHaveLength(1);
    } finally {
      events.stop();
    }
  });

  test('simultaneous requests with one key but different bodies → one created, the others 422', async () => {
    const { client, user } = await signUpUser(server.url, 'idemrace422');
    await client.get('/api/auth/');
    const key = randomUUID();
    const responses = await Promise.all(['A', 'B', 'C', 'D'].map((name) => post<Board>(client, '/api/boards/', { name }, key)));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
    const boards = (await client.get<BoardList>('/api/boards/')).body.boards;
    expect(boards).toHaveLength(1);
    expect(await keyRows(user.id)).toEqual([{ key, status_code: 201 }]);
  });

  test('a key older than 24 hours no longer replays: the request runs again', async () => {
    const { client, user } = await signUpUser(server.url, 'idemold');
    const title = `Expiring ${randomUUID()}`;
    const key = randomUUID();
    const first = await post<Pin>(client, '/api/pins/', pinBody(title), key);
    const age = async (interval: string) => {
      await sql`update idempotency_keys set created_at = now() - ${interval}::interval where user_id = ${user.id} and key = ${key}`.execute(db());
    };
    await age('23 hours 59 minutes');
    expectReplay(first, await post<Pin>(client, '/api/pins/', pinBody(title), key));
    await age('24 hours 1 minute');
    const fresh = await post<Pin>(client, '/api/pins/', pinBody(title), key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
    expect(await pinsTitled(title)).toBe(2);
    // The new answer is what replays from now on; an expired key may also carry a new request.
    expectReplay(fresh, await post<Pin>(client, '/api/pins/', pinBody(title), key));
    await age('25 hours');
    expect((await post(client, '/api/boards/', { name: 'Reused key' }, key)).status).toBe(201);
  });
});

test('expired records are swept from the table', async () => {
  // A server of its own, so that its first keyed request is the one that triggers the sweep.
  await withTestServer({}, async (fresh) => {
    const { client, user } = await signUpUser(fresh.url, 'idemsweep');
    const freshDb = fresh.server.database.db;
    await freshDb
      .insertInto('idempotency_keys')
      .values([
        { user_id: user.id, key: 'old', request_hash: 'a'.repeat(64), status_code: 201, response: '{}', created_at: new Date(Date.now() - 25 * 3600_000) },
        { user_id: user.id, key: 'recent', request_hash: 'b'.repeat(64), status_code: 201, response: '{}', created_at: new Date(Date.now() - 23 * 3600_000) },
      ])
      .execute();
    expect((await post(client, '/api/boards/', { name: 'Sweeper' }, 'new')).status).toBe(201);
    await expect.poll(async () => (await freshDb.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map((r) => r.key)).toEqual(['new', 'recent']);
  });
});

describe('two instances on one database', () => {
  // Like sessions-redis.test.ts: instances behind a balancer share Postgres and Redis (PGlite is one
  // process's database), so both Vitest projects use Postgres here.
  const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

  test('a retry sent to the other instance returns the first result', async () => {
    const { client } = await signUpUser(app.one.url, 'idemcross');
    const onTwo = sameSessionOn(app.two.url, client);
    const key = randomUUID();
    const title = `Across ${randomUUID()}`;
    const published: number[] = [];
    const offs = [app.one, app.two].map((s, i) => s.server.events.onChange('pin:created', ({ pin }) => pin.title === title && published.push(i)));
    try {
      const first = await post<Pin>(client, '/api/pins/', pinBody(title), key);
      const again = await post<Pin>(onTwo, '/api/pins/', pinBody(title), key);
      expectReplay(first, again);
      const rows = await app.one.server.database.db.selectFrom('pins').select('id').where('title', '=', title).execute();
      expect(rows).toEqual([{ id: first.body.id }]);
      expect(published).toEqual([0]);
    } finally {
      offs.forEach((off) => off());
    }
  });

  test('simultaneous requests with one key on both instances → one comment, same id everywhere', async () => {
    const { client } = await signUpUser(app.one.url, 'idemcrossrace');
    const pin = (await post<Pin>(client, '/api/pins/', pinBody('Cross race'))).body;
    const onTwo = sameSessionOn(app.two.url, client);
    const key = randomUUID();
    const path = `/api/comments/pins/${pin.id}/comments`;
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => post<Comment>(i % 2 === 0 ? client : onTwo, path, { text: 'Both ways' }, key)));
    expect(responses.map((r) => r.status)).toEqual(Array<number>(6).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect((await client.get<CommentList>(path)).body.comments).toHaveLength(1);
  });
});

test('the OpenAPI document describes the header, the replay marker and the 422 on the three creates', async () => {
  interface Operation {
    parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { pattern?: string } }>;
    responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }>;
  }
  const doc = (await new ApiClient(server.url).get<{ paths: Record<string, Record<string, Operation>> }>('/api/openapi.json')).body;
  const creates = ['/api/pins/', '/api/boards/', '/api/comments/pins/{pinId}/comments'];
  for (const path of creates) {
    const op = doc.paths[path]?.post as Operation;
    const header = op.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(header, path).toMatchObject({ required: false });
    const pattern = new RegExp(header?.schema?.pattern ?? '(?!)');
    expect(
      ['x', 'k'.repeat(255)].every((k) => pattern.test(k)),
      path,
    ).toBe(true);
    expect(
      ['', 'k'.repeat(256), 'a b', 'clé'].some((k) => pattern.test(k)),
      path,
    ).toBe(false);
    expect(op.responses['201']?.headers, path).toHaveProperty('Idempotent-Replayed');
    expect(op.responses['422']?.content?.['application/json']?.schema, path).toEqual({ $ref: '#/components/schemas/Error' });
  }
  // Writes the outbox never queues do not take the header (docs/outbox.md lists those that do).
  const edit = doc.paths['/api/pins/{id}']?.put as Operation;
  expect(edit.parameters?.some((p) => p.name === 'Idempotency-Key') ?? false).toBe(false);
  expect(edit.responses['422']).toBeUndefined();
});
