import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { BOUNDS } from '../support/eventually.ts';
import { newPin } from '../support/factories.ts';
import { nextEvent, watch } from '../support/sockets.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// The read path on two instances sharing Postgres and Redis: public reads are cached per instance
// (backend/http/read-cache.ts) and sessions remembered briefly (cached-session-store.ts). What a
// client reads must never lag behind an event it has already received, on either instance.

// A Redis database of this file's own, so the session keys counted here are this file's alone.
const REDIS_DB_URL = 'redis://127.0.0.1:6379/7';
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_DB_URL);
  await redis.flushdb();
});
// Registered first, so it runs last: after both instances have stopped.
afterAll(async () => {
  await redis?.flushdb();
  redis?.disconnect();
});
const app = useTwoInstances({ env: { REDIS_URL: REDIS_DB_URL } });

test("a like on one instance is in the other's answer once its event arrives there, every time", async () => {
  const { client } = await signUpUser(app.one.url);
  const pin = await newPin(client, 'Cached');
  const onTwo = await app.socket(app.two);
  expect(await watch(onTwo, { pinIds: [pin.id] })).toEqual({ ok: true });
  const readerOnTwo = new ApiClient(app.two.url);
  // Each like or unlike bumps the pin's likes version: only an event newer than the last one seen
  // is this round's (nextEvent also looks through the events already received).
  let lastVersion = 0;

  for (let round = 1; round <= 10; round++) {
    // Warm instance two's cache with the current count, then change it through instance one.
    const before = (await readerOnTwo.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count;
    const liked = round % 2 === 1;
    const event = nextEvent(onTwo, 'pin:likes', (e) => e.version > lastVersion);
    if (liked) {
      const favorite = (await client.post<Favorite>('/api/favorites/', { pin_id: pin.id })).body;
      expect(favorite.likes_count).toBe(before + 1);
    } else {
      const favorites = (await client.get<{ pins: Favorite[] }>('/api/favorites/')).body.pins;
      await client.delete(`/api/favorites/${favorites[0]?.id}`);
    }
    const { likesCount, version } = await event;
    lastVersion = version;
    expect(likesCount).toBe(liked ? before + 1 : before - 1);
    // The invalidation is published ahead of the event on the same Redis connection, so instance
    // two has dropped its cached copy before its client hears of the change.
    expect((await readerOnTwo.get<Pin>(`/api/pins/${pin.id}`)).body.likes_count).toBe(likesCount);
  }
});

test("a comment and a new pin made on one instance are in the other's cached lists once their events arrive", async () => {
  const { client } = await signUpUser(app.one.url);
  const pin = await newPin(client, 'Commented');
  const onTwo = await app.socket(app.two);
  expect(await watch(onTwo, { pinIds: [pin.id] })).toEqual({ ok: true });
  const readerOnTwo = new ApiClient(app.two.url);

  expect((await readerOnTwo.get<CommentList>(`/api/comments/pins/${pin.id}/comments`)).body.comments).toEqual([]);
  const arrived = nextEvent(onTwo, 'comment:created');
  const comment = (await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'fresh' })).body;
  await arrived;
  expect((await readerOnTwo.get<CommentList>(`/api/comments/pins/${pin.id}/comments`)).body.comments).toEqual([comment]);

  // The newest page one, cached on instance two, gains a pin created on instance one.
  expect((await readerOnTwo.get<PinList>('/api/pins/?limit=5')).body.pins[0]?.id).toBe(pin.id);
  const created = nextEvent(onTwo, 'pin:created');
  const next = await newPin(client, 'Newer');
  await created;
  expect((await readerOnTwo.get<PinList>('/api/pins/?limit=5')).body.pins[0]).toEqual(next);

  // An edit and a deletion reach the cached pin the same way.
  const updated = nextEvent(onTwo, 'pin:updated');
  const edited = (await client.put<Pin>(`/api/pins/${next.id}`, { title: 'Renamed', description: '' })).body;
  await updated;
  expect((await readerOnTwo.get<Pin>(`/api/pins/${next.id}`)).body).toEqual(edited);
  const deleted = nextEvent(onTwo, 'pin:deleted');
  await client.delete(`/api/pins/${next.id}`);
  await deleted;
  expect((await readerOnTwo.get(`/api/pins/${next.id}`)).status).toBe(404);
});

test('a client that holds the current version gets 304 and no body; a change gives it the new one', async () => {
  const { client } = await signUpUser(app.one.url);
  const pin = await newPin(client, 'Tagged');
  const reader = new ApiClient(app.two.url);
  const first = await reader.get<Pin>(`/api/pins/${pin.id}`);
  const etag = first.headers.get('etag') as string;
  expect(etag).toMatch(/^"[\w-]+"$/);
  expect(first.headers.get('cache-control')).toBe('no-cache');

  const again = await reader.request('GET', `/api/pins/${pin.id}`, { headers: { 'if-none-match': etag } });
  expect(again.status).toBe(304);
  expect(again.body).toBe('');
  // The other instance computes the same validator for the same bytes.
  const elsewhere = await new ApiClient(app.one.url).request('GET', `/api/pins/${pin.id}`, { headers: { 'if-none-match': etag } });
  expect(elsewhere.status).toBe(304);

  await client.post('/api/favorites/', { pin_id: pin.id });
  const changed = await vi.waitFor(
    async () => {
      const answer = await reader.request<Pin>('GET', `/api/pins/${pin.id}`, { headers: { 'if-none-match': etag } });
      expect(answer.status).toBe(200);
      return answer;
    },
    { timeout: BOUNDS.eventMs, interval: 50 },
  );
  expect(changed.body.likes_count).toBe(1);
  expect(changed.headers.get('etag')).not.toBe(etag);
});

test('anonymous reads create no session and set cookies only on the first answer', async () => {
  const sessionKeys = async () => (await redis.keys('pinboard:sess:*')).length;
  const keysBefore = await sessionKeys();
  const visitor = new ApiClient(app.one.url);
  const first = await visitor.get('/api/pins/?limit=5');
  const firstCookies = first.headers.getSetCookie().map((cookie) => cookie.split('=')[0]);
  expect(firstCookies.sort()).toEqual(['XSRF-TOKEN', 'pinboard.aid']);

  // The browser sends its cookies back, to either instance: nothing more is set, nothing stored.
  for (const path of ['/api/pins/?limit=5', '/api/auth/', '/']) {
    for (const base of [app.one.url, app.two.url]) {
      const same = new ApiClient(base);
      for (const [name, value] of visitor.cookies) same.cookies.set(name, value);
      const answer = await same.get(path);
      // (The page itself answers 503 in a checkout whose client is not built: cookies are the point.)
      if (path !== '/') expect(answer.status).toBe(200);
      expect(answer.headers.getSetCookie(), `${base}${path}`).toEqual([]);
    }
  }
  expect(await sessionKeys()).toBe(keysBefore);

  // Signing in stores exactly one session; its reads set no cookie either.
  const { client } = await signUpUser(app.one.url);
  expect(await sessionKeys()).toBe(keysBefore + 1);
  const signedIn = new ApiClient(app.two.url);
  for (const [name, value] of client.cookies) signedIn.cookies.set(name, value);
  const me = await signedIn.get<{ user: { id: number } | null }>('/api/auth/');
  expect(me.body.user).not.toBeNull();
  expect(me.headers.getSetCookie()).toEqual([]);
});

test('a session ended on one instance is refused by the other, which had it cached', async () => {
  const { client } = await signUpUser(app.one.url);
  const onTwo = new ApiClient(app.two.url);
  for (const [name, value] of client.cookies) onTwo.cookies.set(name, value);
  // Read a few times on instance two so it holds the session in memory.
  for (let i = 0; i < 3; i++) expect((await onTwo.get<{ user: unknown }>('/api/auth/')).body.user).not.toBeNull();
  await client.get('/api/auth/logout');
  await vi.waitFor(
    async () => {
      expect((await onTwo.get<{ user: unknown }>('/api/auth/')).body.user).toBeNull();
    },
    { timeout: BOUNDS.eventMs, interval: 50 },
  );
});
