// Every list pages (docs/paging.md): walks return each item exactly once and in order, also while
// other clients write between pages; the home shuffle is a seeded permutation of the pins at page
// one; cursors are tamper-proof and bound to their list; counts are columns that equal the rows.
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Board, BoardList } from '../../contract/boards.ts';
import type { CommentList } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { FavoriteList } from '../../contract/favorites.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { newPins } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();

const db = () => server.server.database.db;
type Page<K extends string, T> = { [key in K]: T[] } & { nextCursor: string | null };

/** Follows nextCursor from page one to the end; `between` runs after each page (other writers). */
async function walk<K extends string, T>(client: ApiClient, path: string, key: K, between?: (page: number) => Promise<void>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const res: { status: number; body: Page<K, T> } = await client.get<Page<K, T>>(`${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body[key]);
    cursor = res.body.nextCursor;
    if (cursor === null) return items;
    await between?.(page);
  }
  throw new Error('the walk did not end');
}

const ids = (items: Array<{ id: number }>) => items.map((item) => item.id);
const descending = (values: number[]) => [...values].sort((a, b) => b - a);

describe('newest first', () => {
  test("all pins and one user's pins: each exactly once, newest first, also while others write between pages", async () => {
    const { client, user } = await signUpUser(server.url, 'walker');
    const other = await signUpUser(server.url, 'writer');
    const mine = await newPins(client, 7, 'mine');
    await newPins(other.client, 3, 'theirs');

    const userWalk = await walk<'pins', Pin>(client, `/api/pins/?userId=${user.id}&limit=3`, 'pins');
    expect(ids(userWalk)).toEqual(descending(ids(mine)));
    expect(userWalk.every((pin) => pin.user_id === user.id)).toBe(true);

    const before = await db().selectFrom('pins').select('id').execute();
    const toDelete = mine[3] as Pin;
    const created: Pin[] = [];
    const seen = await walk<'pins', Pin>(client, '/api/pins/?limit=2', 'pins', async (page) => {
      if (page === 0) created.push(...(await newPins(other.client, 2, 'during')));
      if (page === 1) expect((await client.delete(`/api/pins/${toDelete.id}`)).status).toBe(200);
    });
    // Exactly once, newest first; pins created during the walk are newer than page one, so they
    // come live, not through the cursor; the deleted pin is skipped if its page came later.
    expect(ids(seen)).toEqual(descending(ids(seen)));
    expect(new Set(ids(seen)).size).toBe(seen.length);
    expect(ids(seen).filter((id) => ids(created).includes(id))).toEqual([]);
    const expected = before.map((row) => row.id).filter((id) => id !== toDelete.id);
    for (const id of expected) expect(ids(seen)).toContain(id);
  });

  test("favorites, boards, a board's pins and a pin's comments walk the same way", async () => {
    const { client } = await signUpUser(server.url, 'lists');
    const pins = await newPins(client, 5, 'fav');
    for (const pin of pins) await client.post('/api/favorites/', { pin_id: pin.id });
    const favorites = await walk<'pins', FavoriteList['pins'][number]>(client, '/api/favorites/?limit=2', 'pins');
    expect(favorites.map((f) => f.pin_id)).toEqual(descending(ids(pins)));

    const boards: Board[] = [];
    for (let i = 0; i < 5; i++) boards.push((await client.post<Board>('/api/boards/', { name: `Board ${i}` })).body);
    const listed = await walk<'boards', Board>(client, '/api/boards/?limit=2', 'boards');
    expect(ids(listed)).toEqual(descending(ids(boards)));

    const board = boards[0] as Board;
    for (const pin of pins) await client.post(`/api/boards/${board.id}/pins`, { pin_id: pin.id });
    const boardPins = await walk<'pins', Board['pins'][number]>(client, `/api/boards/${board.id}?limit=2`, 'pins');
    expect(ids(boardPins)).toEqual(ids(pins).reverse()); // most recently added first
    const covers = (await client.get<BoardList>('/api/boards/?limit=100')).body.boards.find((b) => b.id === board.id);
    expect(covers).toMatchObject({
      pin_count: 5,
      pins: pins
        .slice(-4)
        .reverse()
        .map(({ id, title, image_url }) => ({ id, title, image_url })),
    });

    const target = pins[0] as Pin;
    const commenters = await Promise.all([1, 2, 3, 4, 5].map(() => signUpUser(server.url, 'commenter')));
    const comments: number[] = [];
    for (const commenter of commenters) comments.push((await commenter.client.post<{ id: number }>(`/api/comments/pins/${target.id}/comments`, { text: 'hello' })).body.id);
    const walked = await walk<'comments', CommentList['comments'][number]>(new ApiClient(server.url), `/api/comments/pins/${target.id}/comments?limit=2`, 'comments');
    expect(ids(walked)).toEqual(descending(comments));
  });

  test('limit defaults to 50 and may be 1 to 100', async () => {
    const { client } = await signUpUser(server.url, 'limits');
    await newPins(client, 3, 'lim');
    expect((await client.get<PinList>('/api/pins/?limit=1')).body.pins).toHaveLength(1);
    expect((await client.get<PinList>('/api/pins/?limit=100')).status).toBe(200);
    const total = await db()
      .selectFrom('pins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await client.get<PinList>('/api/pins/')).body.pins).toHaveLength(Math.min(50, Number(total.n)));
  });
});

describe('the home shuffle', () => {
  test('a seed fixes a permutation of the pins at page one; another seed gives another order', async () => {
    const { client } = await signUpUser(server.url, 'shuffler');
    await newPins(client, 30, 'shuf');
    const all = descending((await db().selectFrom('pins').select('id').execute()).map((row) => row.id));
    const first = await walk<'pins', Pin>(client, '/api/pins/?order=shuffle&seed=42&limit=7', 'pins');
    const again = await walk<'pins', Pin>(client, '/api/pins/?order=shuffle&seed=42&limit=11', 'pins');
    const other = await walk<'pins', Pin>(client, '/api/pins/?order=shuffle&seed=43&limit=7', 'pins');
    expect(ids(first)).toEqual(ids(again));
    expect(descending(ids(first))).toEqual(all);
    expect(descending(ids(other))).toEqual(all);
    expect(ids(other)).not.toEqual(ids(first));
    expect(ids(first)).not.toEqual(all); // shuffled, not newest first
  });

  test('exactly once while others create and delete pins between pages', async () => {
    const { client } = await signUpUser(server.url, 'shufwalk');
    const other = await signUpUser(server.url, 'shufwriter');
    const victims = await newPins(other.client, 6, 'victim');
    await newPins(client, 20, 'stay');
    const atStart = (await db().selectFrom('pins').select('id').execute()).map((row) => row.id);
    const deleted: number[] = [];
    const created: number[] = [];
    const seen = await walk<'pins', Pin>(client, '/api/pins/?order=shuffle&seed=7&limit=5', 'pins', async (page) => {
      created.push(...ids(await newPins(other.client, 2, `new${page}`)));
      const victim = victims[page];
      if (victim && (await other.client.delete(`/api/pins/${victim.id}`)).status === 200) deleted.push(victim.id);
    });
    expect(new Set(ids(seen)).size).toBe(seen.length);
    expect(ids(seen).filter((id) => created.includes(id))).toEqual([]);
    const survivors = atStart.filter((id) => !deleted.includes(id));
    // Every pin of page one that still exists came exactly once; deleted ones came at most once (before their deletion).
    for (const id of survivors) expect(ids(seen)).toContain(id);
    expect(ids(seen).every((id) => atStart.includes(id))).toBe(true);
  });
});

describe('bad paging input answers 400 with the error shape', () => {
  test('limits, orders, seeds', async () => {
    const client = new ApiClient(server.url);
    const cases: Array<[string, string]> = [
      ['/api/pins/?limit=0', 'limit'],
      ['/api/pins/?limit=101', 'limit'],
      ['/api/pins/?limit=abc', 'limit'],
      ['/api/pins/?limit=1.5', 'limit'],
      ['/api/pins/?limit=-1', 'limit'],
      ['/api/pins/?limit=1&limit=2', 'limit'],
      ['/api/pins/?order=random', 'order'],
      ['/api/pins/?order=shuffle', 'seed'],
      ['/api/pins/?order=shuffle&seed=-5', 'seed'],
      ['/api/pins/?order=shuffle&seed=1&userId=1', 'userId'],
      ['/api/pins/?userId=abc', 'userId'],
      ['/api/comments/pins/1/comments?limit=500', 'limit'],
      ['/api/pins/?cursor=', 'cursor'],
    ];
    for (const [path, field] of cases) {
      const res = await client.get<ErrorBody>(path);
      expect(res.status, path).toBe(400);
      expect(Object.keys(res.body.fields), path).toContain(field);
      expect(res.body.errors.length, path).toBeGreaterThan(0);
    }
  });

  test('malformed, tampered and foreign cursors', async () => {
    const { client, user } = await signUpUser(server.url, 'cursors');
    const other = await signUpUser(server.url, 'cursorsother');
    const pins = await newPins(client, 3, 'cur');
    for (const pin of pins) {
      await client.post('/api/favorites/', { pin_id: pin.id });
      await other.client.post('/api/favorites/', { pin_id: pin.id });
      await client.post(`/api/comments/pins/${pin.id}/comments`, { text: 'x' });
      await other.client.post(`/api/comments/pins/${pin.id}/comments`, { text: 'y' });
    }
    const newest = (await client.get<PinList>('/api/pins/?limit=1')).body.nextCursor as string;
    const shuffled = (await client.get<PinList>('/api/pins/?order=shuffle&seed=5&limit=1')).body.nextCursor as string;
    const favorites = (await client.get<FavoriteList>('/api/favorites/?limit=1')).body.nextCursor as string;
    const comments = (await client.get<CommentList>(`/api/comments/pins/${pins[0]?.id}/comments?limit=1`)).body.nextCursor as string;
    expect([newest, shuffled, favorites, comments].every((cursor) => typeof cursor === 'string')).toBe(true);
    const [payload = '', signature = ''] = newest.split('.');
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const bad: Array<[ApiClient, string]> = [
      [client, '/api/pins/?cursor=garbage'],
      [client, `/api/pins/?cursor=${flip(payload)}.${signature}`],
      [client, `/api/pins/?cursor=${payload}.${flip(signature)}`],
      [client, `/api/pins/?cursor=${payload}`],
      [client, `/api/pins/?cursor=${newest}.x`],
      // Other spellings of the same signature bytes: padded, or another unused low bit in its last character.
      [client, `/api/pins/?cursor=${payload}.${signature}${encodeURIComponent('==')}`],
      [client, `/api/pins/?cursor=${payload}.${otherLastCharacter(signature)}`],
      [client, `/api/pins/?cursor=${payload}${encodeURIComponent('=')}.${signature}`],
      [client, `/api/pins/?cursor=${Buffer.from('{"s":"pins:newest","p":1}').toString('base64url')}.${signature}`],
      // Another list's cursor: another order, another seed, another user, another pin.
      [client, `/api/pins/?order=shuffle&seed=5&cursor=${newest}`],
      [client, `/api/pins/?cursor=${shuffled}`],
      [client, `/api/pins/?order=shuffle&seed=6&cursor=${shuffled}`],
      [client, `/api/pins/?userId=${user.id}&cursor=${newest}`],
      [other.client, `/api/favorites/?cursor=${favorites}`],
      [client, `/api/comments/pins/${pins[1]?.id}/comments?cursor=${comments}`],
      [client, `/api/boards/?cursor=${favorites}`],
    ];
    for (const [who, path] of bad) {
      const res = await who.get<ErrorBody>(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({
        message: 'The cursor is not valid for this list. Start again from the first page.',
        errors: ['The cursor is not valid for this list. Start again from the first page.'],
        fields: { cursor: 'The cursor is not valid for this list. Start again from the first page.' },
      });
    }
    // The genuine cursors still work.
    expect((await client.get(`/api/pins/?cursor=${newest}`)).status).toBe(200);
    expect((await client.get(`/api/favorites/?cursor=${favorites}`)).status).toBe(200);
  });
});

/**
 * The signature with a last character that decodes to the same bytes: 16 bytes fill 22 base64
 * characters, so the last one carries 2 bits and its other 4 are ignored by decoders.
 */
function otherLastCharacter(signature: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(signature.at(-1) ?? 'A');
  return signature.slice(0, -1) + (alphabet[last ^ 1] ?? 'A');
}

describe('counts are columns equal to the rows', () => {
  const counted = async () => {
    const { rows } = await sql<{ drift: number }>`
      select (select count(*) from pins p where p.likes_count <> (select count(*) from favorites f where f.pin_id = p.id))
           + (select count(*) from boards b where b.pin_count <> (select count(*) from board_pins bp where bp.board_id = b.id)) as drift`.execute(db());
    return Number(rows[0]?.drift);
  };

  test('after 50 concurrent favorites and unfavorites, and 50 concurrent board adds and removes', async () => {
    const { client } = await signUpUser(server.url, 'counted');
    const [pin] = await newPins(client, 1, 'popular');
    const fans = await Promise.all(Array.from({ length: 50 }, () => signUpUser(server.url, 'fan')));
    const added = await Promise.all(fans.map((fan) => fan.client.post<{ id: number }>('/api/favorites/', { pin_id: pin?.id })));
    expect((await client.get<Pin>(`/api/pins/${pin?.id}`)).body.likes_count).toBe(50);
    await Promise.all(fans.slice(0, 25).map((fan, i) => fan.client.delete(`/api/favorites/${added[i]?.body.id}`)));
    expect((await client.get<Pin>(`/api/pins/${pin?.id}`)).body.likes_count).toBe(25);

    const pins = await newPins(client, 50, 'entry');
    const board = (await client.post<Board>('/api/boards/', { name: 'Busy' })).body;
    await Promise.all(pins.map((p) => client.post(`/api/boards/${board.id}/pins`, { pin_id: p.id })));
    await Promise.all(pins.map((p) => client.post(`/api/boards/${board.id}/pins`, { pin_id: p.id }))); // again: no change
    expect((await client.get<Board>(`/api/boards/${board.id}`)).body.pin_count).toBe(50);
    await Promise.all(pins.slice(0, 20).map((p) => client.delete(`/api/boards/${board.id}/pins/${p.id}`)));
    // Deleting pins removes their board entries by cascade; the count follows.
    await Promise.all(pins.slice(20, 30).map((p) => client.delete(`/api/pins/${p.id}`)));
    expect((await client.get<Board>(`/api/boards/${board.id}`)).body.pin_count).toBe(20);
    expect(await counted()).toBe(0);
  });
});

test('answers are compressed when the client accepts it', async () => {
  const res = await fetch(`${server.url}/api/pins/?limit=100`, { headers: { 'accept-encoding': 'gzip' } });
  expect(res.headers.get('content-encoding')).toBe('gzip');
  const br = await fetch(`${server.url}/api/pins/?limit=100`, { headers: { 'accept-encoding': 'br' } });
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(((await br.json()) as PinList).pins.length).toBeGreaterThan(0);
});
