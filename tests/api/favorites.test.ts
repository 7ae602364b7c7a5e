import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Favorite, FavoriteList, FavoriteRemoved } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import type { DB } from '../../db/schema.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { createTestDatabase } from '../support/database.ts';
import { eventually } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();

describe('favorites', () => {
  test('add → 201 favorite with likes count; list; add again → 200 Already favorited', async () => {
    const owner = await signUpUser(server.url);
    const fan = await signUpUser(server.url);
    const pin = await newPin(owner.client, 'Lovely');
    const res = await fan.client.post<Favorite>('/api/favorites/', { pin_id: pin.id });
    expect(res.status).toBe(201);
    // A version is 1 here unless the pin's row was busy (its image import); then it comes with the
    // settle job (docs/data-model.md, "pin:likes and likes_version"), checked below.
    expect(res.body).toEqual({
      id: expect.any(Number),
      pin_id: pin.id,
      title: 'Lovely',
      image_url: 'https://a.test/x.png',
      image: null,
      likes_count: 1,
      likes_version: expect.any(Number),
      visibility: 'public',
    });
    const again = await fan.client.post('/api/favorites/', { pin_id: pin.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Already favorited' });
    await owner.client.post('/api/favorites/', { pin_id: pin.id });
    // The count is exact at once; the version is 2 at once when the favorite found the pin's row
    // free, else once the settle job has run (docs/data-model.md, "pin:likes and likes_version").
    const list = await fan.client.get<FavoriteList>('/api/favorites/');
    expect(list.body.pins).toEqual([{ ...res.body, likes_count: 2, likes_version: expect.any(Number) }]);
    const settled = await eventually(
      async () => (await fan.client.get<FavoriteList>('/api/favorites/')).body.pins,
      (pins) => pins[0]?.likes_version === 2,
    );
    expect(settled).toEqual([{ ...res.body, likes_count: 2, likes_version: 2 }]);
    expect((await new ApiClient(server.url).get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(2);
  });

  test('favorites list is per user, newest first', async () => {
    const { client } = await signUpUser(server.url);
    const a = await newPin(client, 'A');
    const b = await newPin(client, 'B');
    await client.post('/api/favorites/', { pin_id: a.id });
    await client.post('/api/favorites/', { pin_id: b.id });
    const list = await client.get<FavoriteList>('/api/favorites/');
    expect(list.body.pins.map((f) => f.title)).toEqual(['B', 'A']);
    const stranger = await signUpUser(server.url);
    expect((await stranger.client.get<FavoriteList>('/api/favorites/')).body.pins).toEqual([]);
  });

  test('remove by favorite id → likes count drops; only the owner of the favorite may remove it', async () => {
    const { client } = await signUpUser(server.url);
    const other = await signUpUser(server.url);
    const pin = await newPin(client);
    const fav = (await client.post<Favorite>('/api/favorites/', { pin_id: pin.id })).body;
    const denied = await other.client.delete<ErrorBody>(`/api/favorites/${fav.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('You do not have permission to do that.');
    expect((await client.get<FavoriteList>('/api/favorites/')).body.pins).toHaveLength(1);
    const res = await client.delete<FavoriteRemoved>(`/api/favorites/${fav.id}`);
    expect(res.status).toBe(200);
    // The count is exact; the version moves on unless the pin's row was busy (then the settle job's).
    expect(res.body).toEqual({ message: 'Removed from favorites', id: fav.id, pin_id: pin.id, likes_count: 0, likes_version: expect.any(Number) });
    expect(res.body.likes_version).toBeGreaterThanOrEqual(fav.likes_version);
    expect((await client.get<FavoriteList>('/api/favorites/')).body.pins).toEqual([]);
    const gone = await client.delete<ErrorBody>(`/api/favorites/${fav.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Favorite not found.');
    // Once gone, the id is unknown to everyone: 404, not 403.
    expect((await other.client.delete(`/api/favorites/${fav.id}`)).status).toBe(404);
  });

  test("a pin's deletion takes its favorites: removing one afterwards → 404, favoriting it → 404", async () => {
    const { client } = await signUpUser(server.url);
    const fan = await signUpUser(server.url);
    const pin = await newPin(client);
    const fav = (await fan.client.post<Favorite>('/api/favorites/', { pin_id: pin.id })).body;
    expect((await client.delete(`/api/pins/${pin.id}`)).status).toBe(200);
    expect((await fan.client.delete(`/api/favorites/${fav.id}`)).status).toBe(404);
    const again = await fan.client.post<ErrorBody>('/api/favorites/', { pin_id: pin.id });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Pin not found.');
    expect((await fan.client.get<FavoriteList>('/api/favorites/')).body.pins).toEqual([]);
  });

  test('unknown pin → 404; bad pin_id → 400; signed out → 401', async () => {
    const { client } = await signUpUser(server.url);
    const unknown = await client.post<ErrorBody>('/api/favorites/', { pin_id: 999999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Pin not found.', errors: ['Pin not found.'], fields: {} });
    const bad = await client.post<ErrorBody>('/api/favorites/', { pin_id: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.pin_id).toBe('pin_id must be a positive whole number.');
    const anon = new ApiClient(server.url);
    expect((await anon.get('/api/favorites/')).status).toBe(401);
    expect((await anon.post('/api/favorites/', { pin_id: 1 })).status).toBe(401);
    expect((await anon.delete('/api/favorites/1')).status).toBe(401);
  });
});

describe('migration 20261124_0006_favorite_functions', () => {
  const functions = async (db: Kysely<DB>) => {
    const { rows } = await sql<{ proname: string }>`
      select proname from pg_proc where proname in ('favorite_add', 'favorite_remove') order by proname`.execute(db);
    return rows.map((r) => r.proname);
  };

  test('down drops both functions and up brings them back', async () => {
    const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
    const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' });
    try {
      await migrateToLatest(database.db);
      expect(await functions(database.db)).toEqual(['favorite_add', 'favorite_remove']);
      const migrator = new Migrator({ db: database.db, provider: migrationProvider });
      const down = await migrator.migrateTo('20261123_0005_counts_and_paging');
      expect(down.error).toBeUndefined();
      // Later migrations come down first, then this one.
      expect(down.results?.map((r) => [r.migrationName, r.direction]).at(-1)).toEqual(['20261124_0006_favorite_functions', 'Down']);
      expect(await functions(database.db)).toEqual([]);
      expect(await migrateToLatest(database.db)).toContain('20261124_0006_favorite_functions');
      expect(await functions(database.db)).toEqual(['favorite_add', 'favorite_remove']);
    } finally {
      await database.close();
      await created?.drop();
    }
  });
});
