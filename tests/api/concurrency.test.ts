import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Board, BoardPin } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Favorite, FavoriteRemoved } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import type { User } from '../../contract/users.ts';
import { ApiClient, type ApiResponse, signUpUser } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Races that only the database constraints can settle (docs/data-model.md): many identical requests
// at once must leave exactly one row behind and answer every loser cleanly, never with a 5xx.

const server = useTestServer();

const db = () => server.server.database.db;

async function count(table: 'users' | 'favorites' | 'comments' | 'board_pins' | 'pins', where: Record<string, unknown>): Promise<number> {
  const conditions = Object.entries(where).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where ${sql.join(conditions, sql` and `)}`.execute(db());
  return Number(rows[0]?.n);
}

function statuses(responses: ApiResponse[]): number[] {
  return responses.map((r) => r.status).sort((a, b) => a - b);
}

function expectErrorShape(body: unknown): asserts body is ErrorBody {
  expect(body).toMatchObject({ message: expect.any(String), errors: expect.any(Array), fields: expect.any(Object) });
  const { message: _message, errors, fields, ...lifted } = body as ErrorBody & Record<string, unknown>;
  // Sign-in and sign-up errors repeat their field messages at the top level (docs/api.md); nothing else is there.
  for (const [key, value] of Object.entries(lifted)) expect(value).toBe(fields[key]);
  expect(errors.length).toBeGreaterThan(0);
  for (const item of errors) expect(typeof item).toBe('string');
  expect(Array.isArray(fields)).toBe(false);
  for (const value of Object.values(fields)) expect(typeof value).toBe('string');
}

describe('favorites', () => {
  test('20 parallel POST /api/favorites/ for one pin by one user → one 201, nineteen "Already favorited", one row, likes_count 1', async () => {
    const { client: owner } = await signUpUser(server.url, 'favowner');
    const pin = await newPin(owner);
    const { client, user } = await signUpUser(server.url, 'favracer');

    const responses = await Promise.all(Array.from({ length: 20 }, () => client.post('/api/favorites/', { pin_id: pin.id })));

    expect(statuses(responses)).toEqual([...Array<number>(19).fill(200), 201]);
    const created = responses.filter((r) => r.status === 201);
    expect(created[0]?.body).toEqual({
      id: expect.any(Number),
      pin_id: pin.id,
      title: pin.title,
      image_url: pin.image_url,
      image: null,
      likes_count: 1,
      likes_version: 1,
      visibility: 'public',
    } satisfies Record<keyof Favorite, unknown>);
    for (const r of responses.filter((x) => x.status === 200)) expect(r.body).toEqual({ message: 'Already favorited' });

    expect(await count('favorites', { user_id: user.id, pin_id: pin.id })).toBe(1);
    expect(await count('favorites', { pin_id: pin.id })).toBe(1);
    const shown = await new ApiClient(server.url).get<Pin>(`/api/pins/${pin.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.likes_count).toBe(1);
    const list = await client.get<{ pins: Favorite[] }>('/api/favorites/');
    expect(list.body.pins.filter((f) => f.pin_id === pin.id)).toHaveLength(1);
  });

  test('8 different users favoriting one pin in parallel → eight 201s and likes_count 8', async () => {
    const { client: owner } = await signUpUser(server.url, 'favowner');
    const pin = await newPin(owner);
    const users = await Promise.all(Array.from({ length: 8 }, () => signUpUser(server.url, 'favfan')));

    const responses = await Promise.all(users.map(({ client }) => client.post<Favorite>('/api/favorites/', { pin_id: pin.id })));

    expect(statuses(responses)).toEqual(Array<number>(8).fill(201));
    expect(await count('favorites', { pin_id: pin.id })).toBe(8);
    expect((await owner.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(8);
  });

  test('20 parallel DELETE /api/favorites/{id} of one favorite → one 200, the rest 404, no row left, likes_count 0', async () => {
    const { client: owner } = await signUpUser(server.url, 'favowner');
    const pin = await newPin(owner);
    const added = await owner.post<Favorite>('/api/favorites/', { pin_id: pin.id });
    expect(added.status).toBe(201);

    const responses = await Promise.all(Array.from({ length: 20 }, () => owner.delete(`/api/favorites/${added.body.id}`)));

    expect(statuses(responses)).toEqual([200, ...Array<number>(19).fill(404)]);
    for (const r of responses.filter((x) => x.status === 404)) expectErrorShape(r.body);
    expect(await count('favorites', { pin_id: pin.id })).toBe(0);
    expect((await owner.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(0);
  });
});

describe('comments', () => {
  test('10 parallel POST comments by one user on one pin → one 201, nine 409 "You have already commented on this pin.", one row', async () => {
    const { client: owner } = await signUpUser(server.url, 'comowner');
    const pin = await newPin(owner);
    const { client, user } = await signUpUser(server.url, 'comracer');

    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => client.post(`/api/comments/pins/${pin.id}/comments`, { text: `attempt ${i}` })));

    expect(statuses(responses)).toEqual([201, ...Array<number>(9).fill(409)]);
    const created = responses.find((r) => r.status === 201)?.body as Comment;
    expect(created).toMatchObject({ pin_id: pin.id, user_id: user.id, username: user.username, text: expect.stringMatching(/^attempt \d$/) });
    for (const r of responses.filter((x) => x.status === 409)) {
      expectErrorShape(r.body);
      expect(r.body.errors).toContain('You have already commented on this pin.');
    }

    expect(await count('comments', { user_id: user.id, pin_id: pin.id })).toBe(1);
    const list = await new ApiClient(server.url).get<{ comments: Comment[] }>(`/api/comments/pins/${pin.id}/comments`);
    expect(list.body.comments).toEqual([created]);
  });

  test('10 different users commenting on one pin in parallel → ten 201s, ten rows', async () => {
    const { client: owner } = await signUpUser(server.url, 'comowner');
    const pin = await newPin(owner);
    const users = await Promise.all(Array.from({ length: 10 }, () => signUpUser(server.url, 'comfan')));

    const responses = await Promise.all(users.map(({ client }, i) => client.post(`/api/comments/pins/${pin.id}/comments`, { text: `hello ${i}` })));

    expect(statuses(responses)).toEqual(Array<number>(10).fill(201));
    expect(await count('comments', { pin_id: pin.id })).toBe(10);
  });
});

describe('boards', () => {
  test('10 parallel POST /api/boards/{id}/pins of one pin → one 201, nine 200, one board_pins row', async () => {
    const { client } = await signUpUser(server.url, 'boardracer');
    const pin = await newPin(client);
    const board = await client.post<Board>('/api/boards/', { name: 'Race board' });
    expect(board.status).toBe(201);

    const responses = await Promise.all(Array.from({ length: 10 }, () => client.post<BoardPin>(`/api/boards/${board.body.id}/pins`, { pin_id: pin.id })));

    expect(statuses(responses)).toEqual([...Array<number>(9).fill(200), 201]);
    for (const r of responses) expect(r.body).toEqual({ id: pin.id, title: pin.title, image_url: pin.image_url, image: null, visibility: 'public' });
    expect(await count('board_pins', { board_id: board.body.id, pin_id: pin.id })).toBe(1);
    expect((await client.get<Board>(`/api/boards/${board.body.id}`)).body.pins).toHaveLength(1);
  });
});

describe('pins', () => {
  test('10 parallel DELETE /api/pins/{id} of one pin → one 200, nine 404, the pin and its favorites gone', async () => {
    const { client } = await signUpUser(server.url, 'pinracer');
    const pin = await newPin(client);
    expect((await client.post('/api/favorites/', { pin_id: pin.id })).status).toBe(201);

    const responses = await Promise.all(Array.from({ length: 10 }, () => client.delete(`/api/pins/${pin.id}`)));

    expect(statuses(responses)).toEqual([200, ...Array<number>(9).fill(404)]);
    for (const r of responses.filter((x) => x.status === 404)) expectErrorShape(r.body);
    expect(await count('pins', { id: pin.id })).toBe(0);
    expect(await count('favorites', { pin_id: pin.id })).toBe(0);
  });

  test('favoriting and commenting while the pin is deleted → only 2xx or 404, never a 5xx or an orphan row', async () => {
    const { client: owner } = await signUpUser(server.url, 'pinowner');
    const pin = await newPin(owner);
    const { client: fan } = await signUpUser(server.url, 'pinfan');

    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () => fan.post('/api/favorites/', { pin_id: pin.id })),
      owner.delete(`/api/pins/${pin.id}`),
      fan.post(`/api/comments/pins/${pin.id}/comments`, { text: 'too late?' }),
      ...Array.from({ length: 5 }, () => fan.post('/api/favorites/', { pin_id: pin.id })),
    ]);

    for (const r of responses) {
      expect([200, 201, 404, 409]).toContain(r.status);
      if (r.status >= 400) expectErrorShape(r.body);
    }
    expect(await count('pins', { id: pin.id })).toBe(0);
    expect(await count('favorites', { pin_id: pin.id })).toBe(0);
    expect(await count('comments', { pin_id: pin.id })).toBe(0);
  });

  test('removing favorites while the pin is deleted → only 200 or 404, never a deadlock 5xx', async () => {
    const { client: owner } = await signUpUser(server.url, 'pinowner');
    for (let round = 0; round < 3; round++) {
      const pin = await newPin(owner);
      const fans = await Promise.all(Array.from({ length: 12 }, () => signUpUser(server.url, 'pinfan')));
      const favorites = await Promise.all(fans.map(({ client }) => client.post<Favorite>('/api/favorites/', { pin_id: pin.id })));

      const removals = fans.map(({ client }, i) => client.delete(`/api/favorites/${favorites[i]?.body.id}`));
      const responses = await Promise.all([...removals.slice(0, 6), owner.delete(`/api/pins/${pin.id}`), ...removals.slice(6)]);

      for (const r of responses) {
        expect([200, 404]).toContain(r.status);
        if (r.status >= 400) expectErrorShape(r.body);
      }
      expect(await count('pins', { id: pin.id })).toBe(0);
      expect(await count('favorites', { pin_id: pin.id })).toBe(0);
    }
  });

  test('the likes version counts every change: 30 favorites and 15 removals in parallel → version 45, count 15', async () => {
    const { client: owner } = await signUpUser(server.url, 'favowner');
    const pin = await newPin(owner);
    const fans = await Promise.all(Array.from({ length: 30 }, () => signUpUser(server.url, 'favfan')));
    const added = await Promise.all(fans.map(({ client }) => client.post<Favorite>('/api/favorites/', { pin_id: pin.id })));
    // No favorite waits for another's commit (docs/data-model.md, "Hot counters are deltas"): each
    // answers the count it could see, its own change included; the last one's is all of them.
    for (const r of added) expect(r.body.likes_count).toBeGreaterThanOrEqual(1);
    for (const r of added) expect(r.body.likes_count).toBeLessThanOrEqual(30);

    const removed = await Promise.all(fans.slice(0, 15).map(({ client }, i) => client.delete<FavoriteRemoved>(`/api/favorites/${added[i]?.body.id}`)));
    expect(statuses(removed)).toEqual(Array<number>(15).fill(200));
    for (const r of removed) expect(r.body.likes_count).toBeLessThanOrEqual(29);

    // Every change takes one version, in its transaction or by its settle job once committed.
    const settled = await eventually(
      async () =>
        (
          await sql<{ likes_count: number; likes_version: number; pending: number }>`
        select likes_count + coalesce((select sum(delta) from pin_like_deltas where pin_id = pins.id), 0)::int as likes_count, likes_version,
          (select count(*)::int from pin_like_deltas where pin_id = pins.id) as pending
        from pins where id = ${pin.id}`.execute(db())
        ).rows,
      (rows) => rows[0]?.likes_version === 45,
    );
    expect(settled.map(({ likes_count, likes_version }) => ({ likes_count, likes_version }))).toEqual([{ likes_count: 15, likes_version: 45 }]);
    expect((await owner.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(15);
    expect(await count('favorites', { pin_id: pin.id })).toBe(15);
  });
});

describe('signup', () => {
  const signup = (email: string, username: string) => new ApiClient(server.url).post<User | ErrorBody>('/api/auth/signup', { email, username, password: 'correct horse battery' });

  test('8 parallel signups with the same email → one 201, seven 409 with fields.email, one account', async () => {
    const tag = `same${process.pid}${Date.now() % 1e6}`;
    const email = `${tag}@example.test`;

    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => signup(email, `${tag}u${i}`)));

    expect(statuses(responses)).toEqual([201, ...Array<number>(7).fill(409)]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expectErrorShape(r.body);
      expect(r.body.fields.email).toBe('Email address is already in use.');
      expect(r.body.errors).toContain('Email address is already in use.');
    }
    expect(await count('users', { email })).toBe(1);
  });

  test('parallel signups with the same email in different letter cases → still one account', async () => {
    const tag = `case${process.pid}${Date.now() % 1e6}`;
    const variants = [`${tag}@example.test`, `${tag.toUpperCase()}@EXAMPLE.TEST`, `${tag}@Example.Test`, ` ${tag}@example.test `];

    const responses = await Promise.all(variants.map((email, i) => signup(email, `${tag}v${i}`)));

    expect(statuses(responses)).toEqual([201, 409, 409, 409]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expectErrorShape(r.body);
      expect(r.body.fields.email).toBe('Email address is already in use.');
    }
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from users where lower(email) = ${`${tag}@example.test`}`.execute(db());
    expect(Number(rows[0]?.n)).toBe(1);
  });

  test('8 parallel signups with the same username → one 201, seven 409 with fields.username, one account', async () => {
    const tag = `name${process.pid}${Date.now() % 1e6}`;

    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => signup(`${tag}e${i}@example.test`, tag)));

    expect(statuses(responses)).toEqual([201, ...Array<number>(7).fill(409)]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expectErrorShape(r.body);
      expect(r.body.fields.username).toBe('Username is already in use.');
    }
    expect(await count('users', { username: tag })).toBe(1);
  });
});
