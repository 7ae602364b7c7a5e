// Search over what is seen in pictures (docs/search.md): `color:NAME` and `color=` filters (alone,
// newest first, or with words, ranked), alt text and recognised text found below titles, scopes
// (mine, favorites, a board) with exact paging and cursors tied to them, `widened`, and the
// type-ahead's colours. On Postgres and on PGlite.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import { COLOR_NAMES } from '../../contract/colors.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import type { SearchResult, Suggestions } from '../../contract/search.ts';
import { allPages, ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();
let author: ApiClient;
let anonymous: ApiClient;
beforeAll(async () => {
  author = (await signUpUser(server.url, 'painter')).client;
  anonymous = new ApiClient(server.url);
});

let n = 0;
interface Made {
  title: string;
  description?: string;
  altText?: string;
  visibility?: 'public' | 'private';
  /** What is seen in its picture: set as image processing sets it, on the images row. */
  colors?: string[];
  text?: string;
}

/** A pin through the API; its picture's colours and text written on its images row (trigger-copied). */
async function pin(client: ApiClient, made: Made): Promise<Pin> {
  n += 1;
  const body = { title: made.title, description: made.description ?? '', imageUrl: `https://example.com/seen-${n}.png`, visibility: made.visibility };
  const res = await client.post<Pin>('/api/pins/', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const db = server.server.database.db;
  // Written as its owner's edit will write it (the column the search vector reads).
  if (made.altText) await sql`update pins set alt_text = ${made.altText} where id = ${res.body.id}`.execute(db);
  if (made.colors || made.text) {
    const sha = createHash('sha256').update(`seen-${n}-${res.body.id}`).digest('hex');
    await sql`insert into images (sha256, format, bytes, width, height, placeholder) values (${sha}, 'png', 10, 4, 3, 'x')`.execute(db);
    await sql`update pins set image_sha256 = ${sha} where id = ${res.body.id}`.execute(db);
    // Seen later, as processing finds it: the images row's trigger tells its pins.
    await sql`update images set colors = ${made.colors ?? []}::text[], text = ${made.text ?? null} where sha256 = ${sha}`.execute(db);
  }
  return res.body;
}

const ids = (pins: Array<{ id: number }>) => pins.map((p) => p.id);
type Params = Record<string, string | string[] | undefined>;
const path = (params: Params) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) for (const one of [value ?? []].flat()) query.append(key, one);
  return `/api/search?${query.toString()}`;
};
async function search(params: Params, client: ApiClient = anonymous): Promise<SearchResult> {
  const res = await client.get<SearchResult>(path(params));
  expect(res.status, `${path(params)}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
const walk = (params: Params, client: ApiClient = anonymous) => allPages<Pin>(client, path(params), 'pins');

describe('colours', () => {
  test('color:NAME alone lists the public pins having it, newest first, paged exactly once; any case; color= says the same', async () => {
    const red: Pin[] = [];
    for (let i = 0; i < 5; i++) red.push(await pin(author, { title: `Poppy field ${i}`, colors: i % 2 ? ['red', 'green'] : ['red'] }));
    const blue = await pin(author, { title: 'Sea', colors: ['blue'] });
    const privateRed = await pin(author, { title: 'Secret rose', colors: ['red'], visibility: 'private' });

    for (const params of [
      { q: 'color:red', limit: '2' },
      { q: 'COLOR:Red', limit: '2' },
      { q: 'color:red', color: 'red', limit: '2' },
      { q: 'colour:red', color: 'RED', limit: '3' },
    ]) {
      const walked = await walk(params);
      const label = JSON.stringify(params);
      expect(new Set(ids(walked)).size, label).toBe(walked.length);
      for (const found of walked) expect(found.image?.colors, label).toContain('red');
      expect(
        ids(walked).filter((id) => ids(red).includes(id)),
        label,
      ).toEqual(ids(red).reverse());
      expect(ids(walked), label).not.toContain(blue.id);
      expect(ids(walked), label).not.toContain(privateRed.id);
      // Newest first.
      expect(ids(walked), label).toEqual([...ids(walked)].sort((a, b) => b - a));
    }
  });

  test('several colours: a pin must have every one (in q, in color=, or both)', async () => {
    const both = await pin(author, { title: 'Ocean sunset', colors: ['orange', 'purple'] });
    const orangeOnly = await pin(author, { title: 'Pumpkin', colors: ['orange'] });
    for (const params of [
      { q: 'color:orange color:purple' },
      { q: 'color:orange', color: ['orange', 'purple'] },
      { q: 'color:orange', color: 'Purple,orange' },
      { q: 'color:purple', color: 'orange' },
    ]) {
      const found = ids(await walk(params));
      expect(found, JSON.stringify(params)).toContain(both.id);
      expect(found, JSON.stringify(params)).not.toContain(orangeOnly.id);
    }
  });

  test('with words, the matches having the colour, ranked as ever; exclusions still apply', async () => {
    const yellowTitle = await pin(author, { title: 'Lemon grove', colors: ['yellow', 'green'] });
    const yellowDescription = await pin(author, { title: 'Orchard', description: 'A lemon tree', colors: ['yellow'] });
    const greenLemon = await pin(author, { title: 'Lemon leaves', colors: ['green'] });
    expect(ids((await search({ q: 'lemon color:yellow' })).pins)).toEqual([yellowTitle.id, yellowDescription.id]);
    expect(ids((await search({ q: 'lemon', color: 'yellow' })).pins)).toEqual([yellowTitle.id, yellowDescription.id]);
    expect(ids((await search({ q: 'lemon color:green' })).pins)).toEqual([greenLemon.id, yellowTitle.id].sort((a, b) => b - a));
    expect(ids((await search({ q: 'color:yellow -orchard lemon' })).pins)).toEqual([yellowTitle.id]);
    expect(ids(await walk({ q: 'color:yellow -orchard' }))).toContain(yellowTitle.id);
    expect(ids(await walk({ q: 'color:yellow -orchard' }))).not.toContain(yellowDescription.id);
  });

  test('a color: word that names no colour is an ordinary word', async () => {
    const magenta = await pin(author, { title: 'Color magenta study', colors: ['pink'] });
    expect(ids((await search({ q: 'color:magenta' })).pins)).toEqual([magenta.id]);
  });

  test('an unknown colour in color= answers 400 naming color and listing the colours; q is still needed', async () => {
    for (const color of ['magenta', '', 'red,,blue', 'red,nope', ['red', 'nope']]) {
      const res = await anonymous.get<ErrorBody>(path({ q: 'x', color }));
      expect(res.status, JSON.stringify(color)).toBe(400);
      for (const name of COLOR_NAMES) expect(res.body.fields.color).toContain(name);
    }
    const none = await anonymous.get<ErrorBody>('/api/search?color=red');
    expect(none.status).toBe(400);
    expect(none.body.fields.q).toEqual(expect.any(String));
  });
});

describe('what is seen and said of a picture', () => {
  test('a word only in the alt text or only in the recognised text finds the pin, below a pin with it in its title', async () => {
    const inTitle = await pin(author, { title: 'Flamingo lagoon' });
    const inAlt = await pin(author, { title: 'Pink birds', altText: 'Three flamingo chicks wading' });
    const inText = await pin(author, { title: 'Zoo sign', text: 'FLAMINGO FEEDING 3PM' });
    const found = ids((await search({ q: 'flamingo' })).pins);
    expect(found).toEqual([inTitle.id, inAlt.id, inText.id]);
    expect(ids((await search({ q: 'chicks' })).pins)).toEqual([inAlt.id]);
    expect(ids((await search({ q: 'feeding' })).pins)).toEqual([inText.id]);
  });
});

describe('scopes', () => {
  test("mine: the caller's own pins, private ones too; signed out 401 naming scope", async () => {
    const me = await signUpUser(server.url, 'scopemine');
    const mine = await pin(me.client, { title: 'Walrus public' });
    const minePrivate = await pin(me.client, { title: 'Walrus private', visibility: 'private', colors: ['grey'] });
    const theirs = await pin(author, { title: 'Walrus elsewhere', colors: ['grey'] });
    expect(ids(await walk({ q: 'walrus', scope: 'mine', limit: '1' }, me.client)).sort()).toEqual([mine.id, minePrivate.id].sort());
    expect(ids(await walk({ q: 'color:grey', scope: 'mine', limit: '1' }, me.client))).toEqual([minePrivate.id]);
    expect(ids(await walk({ q: 'walrus' }, me.client)).sort()).toEqual([mine.id, theirs.id].sort());
    for (const scope of ['mine', 'favorites']) {
      const res = await anonymous.get<ErrorBody>(path({ q: 'walrus', scope }));
      expect(res.status, scope).toBe(401);
      expect(res.body.fields.scope, scope).toEqual(expect.any(String));
    }
  });

  test('favorites: the pins the caller favorited that they may still see', async () => {
    const fan = await signUpUser(server.url, 'scopefan');
    const liked = await pin(author, { title: 'Narwhal one', colors: ['teal'] });
    const likedThenHidden = await pin(author, { title: 'Narwhal two' });
    const notLiked = await pin(author, { title: 'Narwhal three' });
    for (const p of [liked, likedThenHidden]) expect((await fan.client.post('/api/favorites/', { pin_id: p.id })).status).toBe(201);
    expect(ids(await walk({ q: 'narwhal', scope: 'favorites', limit: '1' }, fan.client)).sort()).toEqual([liked.id, likedThenHidden.id].sort());
    expect((await author.put(`/api/pins/${likedThenHidden.id}`, { visibility: 'private' })).status).toBe(200);
    expect(ids(await walk({ q: 'narwhal', scope: 'favorites' }, fan.client))).toEqual([liked.id]);
    expect(ids(await walk({ q: 'color:teal', scope: 'favorites' }, fan.client))).toEqual([liked.id]);
    expect(ids(await walk({ q: 'narwhal' }, fan.client))).toContain(notLiked.id);
  });

  test('board:<id>: a board the caller may read, all its pins for a member, the public ones for an outsider; else 404', async () => {
    const owner = await signUpUser(server.url, 'scopeboard');
    const outsider = await signUpUser(server.url, 'scopeoutsider');
    const open = await pin(owner.client, { title: 'Ibis open' });
    const hidden = await pin(owner.client, { title: 'Ibis hidden', visibility: 'private' });
    const offBoard = await pin(owner.client, { title: 'Ibis elsewhere' });
    const board = (await owner.client.post<Board>('/api/boards/', { name: 'Wading birds' })).body;
    for (const p of [open, hidden]) expect((await owner.client.post(`/api/boards/${board.id}/pins`, { pin_id: p.id })).status).toBe(201);
    const scope = `board:${board.id}`;

    expect(ids(await walk({ q: 'ibis', scope, limit: '1' }, owner.client)).sort()).toEqual([open.id, hidden.id].sort());
    expect(ids(await walk({ q: 'ibis' }, owner.client))).toContain(offBoard.id);
    // A private board is 404 to everyone else, as a missing board is.
    for (const client of [outsider.client, anonymous]) expect((await client.get<ErrorBody>(path({ q: 'ibis', scope }))).status).toBe(404);
    expect((await owner.client.get(path({ q: 'ibis', scope: 'board:2147483646' }))).status).toBe(404);
    // Made public, outsiders see its public pins only.
    expect((await owner.client.patch(`/api/boards/${board.id}`, { visibility: 'public' })).status).toBe(200);
    for (const client of [outsider.client, anonymous]) expect(ids(await walk({ q: 'ibis', scope }, client))).toEqual([open.id]);
  });

  test("a malformed scope answers 400 naming scope; a cursor is its scope's and its reader's", async () => {
    for (const scope of ['all', 'board:', 'board:x', 'board:0', 'board:99999999999', 'MINE', ' mine']) {
      const res = await author.get<ErrorBody>(path({ q: 'x', scope }));
      expect(res.status, scope).toBe(400);
      expect(res.body.fields.scope, scope).toEqual(expect.any(String));
    }
    const me = await signUpUser(server.url, 'scopecursor');
    for (let i = 0; i < 3; i++) await pin(me.client, { title: `Puffin ${i}`, colors: ['black', 'white'] });
    for (const params of [
      { q: 'puffin', scope: 'mine', limit: '1' },
      { q: 'color:black', scope: 'mine', limit: '1' },
    ]) {
      const first = await search(params, me.client);
      const cursor = first.nextCursor as string;
      expect(cursor, JSON.stringify(params)).toEqual(expect.any(String));
      for (const [client, other] of [
        [me.client, { ...params, scope: undefined }],
        [author, params],
        [me.client, { ...params, scope: 'favorites' }],
      ] as const) {
        const res = await client.get<ErrorBody>(path({ ...other, cursor }));
        expect(res.status, JSON.stringify(other)).toBe(400);
        expect(res.body.fields.cursor).toEqual(expect.any(String));
      }
    }
  });
});

describe('widened', () => {
  test('true when a misspelt word was widened to similar words, false otherwise', async () => {
    const pelican = await pin(author, { title: 'Pelican feeding' });
    const misspelt = await search({ q: 'pelicen' });
    expect(ids(misspelt.pins)).toContain(pelican.id);
    expect(misspelt.widened).toBe(true);
    expect((await search({ q: 'pelican' })).widened).toBe(false);
    expect((await search({ q: 'color:red' })).widened).toBe(false);
    expect((await search({ q: 'zzqxwv' })).widened).toBe(false);
  });
});

describe('the type-ahead offers colours', () => {
  test('colours whose name starts with the word, or with what follows color:', async () => {
    const suggest = async (q: string) => {
      const res = await anonymous.get<Suggestions>(`/api/search/suggest?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      return res.body;
    };
    expect((await suggest('bl')).colors).toEqual(['black', 'blue']);
    expect((await suggest('sunset BR')).colors).toEqual(['brown']);
    expect(await suggest('color:r')).toEqual({ tags: [], users: [], colors: ['red'] });
    expect((await suggest('COLOR:')).colors).toEqual([...COLOR_NAMES].sort());
    expect((await suggest('#bl')).colors).toEqual([]);
    expect((await suggest('b')).colors).toEqual([]);
    expect((await suggest('xylophone')).colors).toEqual([]);
  });
});
