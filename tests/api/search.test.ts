// Search, tags and related pins (docs/search.md), on Postgres and on PGlite: ranking, phrases,
// exclusions, `or`, typos and prefixes; tags parsed on every write; a tag's pins; the type-ahead;
// "More like this" without the pin itself or anything from a board the reader is not on; paging
// that returns each pin exactly once; and odd input that answers 400 or 200, never 500.
import { Migrator, sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { ChangeEntry } from '../../contract/changes.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import type { Suggestions } from '../../contract/search.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import { createTestDatabase } from '../support/database.ts';
import { allPages, ApiClient, signUpUser } from '../support/client.ts';
import { newPin } from '../support/factories.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';

let author: ApiClient;
let anonymous: ApiClient;

const server = useTestServer();
beforeAll(async () => {
  author = (await signUpUser(server.url, 'searcher')).client;
  anonymous = new ApiClient(server.url);
});

let n = 0;
async function pin(client: ApiClient, title: string, description = ''): Promise<Pin> {
  n += 1;
  return newPin(client, { title, description, imageUrl: `https://example.com/search-${n}.png` });
}

async function search(q: string, client: ApiClient = anonymous): Promise<Pin[]> {
  const res = await client.get<PinList>(`/api/search?q=${encodeURIComponent(q)}`);
  expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.pins;
}
const ids = (pins: Array<{ id: number }>) => pins.map((p) => p.id);

describe('matching and ranking', () => {
  test('a title hit ranks above a description hit, which ranks above a tag hit; other pins are not found', async () => {
    const byTag = await pin(author, 'A cup on a table', 'Morning things #cappuccino');
    const inDescription = await pin(author, 'Breakfast', 'A cappuccino with too much foam');
    const inTitle = await pin(author, 'Cappuccino art', 'Latte art at home');
    await pin(author, 'Tea time', 'Nothing about that drink');
    expect(ids(await search('cappuccino'))).toEqual([inTitle.id, inDescription.id, byTag.id]);
    // Any case, and the plural stems to the same word.
    expect(ids(await search('CAPPUCCINOS'))).toEqual([inTitle.id, inDescription.id, byTag.id]);
  });

  test('every word must match (in any field)', async () => {
    const both = await pin(author, 'Harbour lighthouse', 'Seen from the pier at dusk');
    await pin(author, 'Harbour cranes', 'Containers everywhere');
    expect(ids(await search('harbour dusk'))).toEqual([both.id]);
  });

  test('"quoted phrases" are strict: those words, in that order', async () => {
    const phrase = await pin(author, 'Red barn in winter', 'Snow on the roof');
    const reversed = await pin(author, 'Barn, red as ever', 'Snow on the roof');
    expect(ids(await search('"red barn"'))).toEqual([phrase.id]);
    expect(ids(await search('red barn')).sort()).toEqual([phrase.id, reversed.id].sort());
  });

  test('-exclusions are strict, for words and phrases; a query of exclusions only finds nothing', async () => {
    const plain = await pin(author, 'Espresso machine', 'Chrome and steam');
    const decaf = await pin(author, 'Espresso, decaf', 'Chrome and steam');
    const broken = await pin(author, 'Espresso machine, broken', 'The steam wand is broken');
    expect(ids(await search('espresso -decaf'))).not.toContain(decaf.id);
    expect(ids(await search('espresso -decaf')).sort()).toEqual([plain.id, broken.id].sort());
    expect(ids(await search('espresso -"wand is broken"')).sort()).toEqual([plain.id, decaf.id].sort());
    expect(await search('-espresso')).toEqual([]);
  });

  test('`or` between two terms: either will do; the other words still must match', async () => {
    const kayak = await pin(author, 'Kayak on the fjord', '');
    const canoe = await pin(author, 'Canoe on the fjord', '');
    await pin(author, 'Canoe on a lake', '');
    expect(ids(await search('kayak or canoe fjord')).sort()).toEqual([kayak.id, canoe.id].sort());
    expect(ids(await search('kayak OR canoe fjord')).sort()).toEqual([kayak.id, canoe.id].sort());
  });

  test('a misspelt word matches similar words, word by word ("cofee" finds coffee)', async () => {
    const coffee = await pin(author, 'Coffee beans', 'Roasted in small batches');
    const both = await pin(author, 'Coffee on the mountain', 'Roasted in small batches');
    expect(ids(await search('cofee'))).toEqual(expect.arrayContaining([coffee.id, both.id]));
    expect(ids(await search('cofee mountian'))).toEqual([both.id]);
    // A whole misspelt title is not a word: nothing looks like it.
    expect(await search('cofeebeansroasted')).toEqual([]);
  });

  test('a word said twice is one condition, and still a prefix when it is the last', async () => {
    const heron = await pin(author, 'Grey heronry at the lake', '');
    expect(ids(await search('heronry heronry'))).toEqual([heron.id]);
    expect(ids(await search('grey heron grey heron'))).toEqual([heron.id]);
  });

  test('the last word is also a prefix ("mount" finds mountains); earlier words are whole words', async () => {
    const mountains = await pin(author, 'Mountains at sunrise', 'Alpine glow');
    expect(ids(await search('mount'))).toContain(mountains.id);
    expect(ids(await search('alpine mount'))).toEqual([mountains.id]);
    expect(ids(await search('mount alpine'))).not.toContain(mountains.id);
  });

  test('a word naming a user finds their pins, below pins that mention it', async () => {
    const { client, user } = await signUpUser(server.url, 'zephyrine');
    const theirs = await pin(client, 'Untitled sketch', 'Pencil on paper');
    const mentions = await pin(author, `Portrait of ${user.username}`, 'Charcoal');
    const found = ids(await search(user.username));
    expect(found.indexOf(mentions.id)).toBeGreaterThanOrEqual(0);
    expect(found.indexOf(theirs.id)).toBeGreaterThan(found.indexOf(mentions.id));
    expect(ids(await search(`${user.username} pencil`))).toEqual([theirs.id]);
  });

  test('a new pin is findable at once, and an edit changes what finds it at once', async () => {
    const created = await pin(author, 'Quokka selfie', 'Rottnest island');
    expect(ids(await search('quokka'))).toEqual([created.id]);
    expect((await author.put(`/api/pins/${created.id}`, { title: 'Wallaby selfie', description: 'Rottnest island' })).status).toBe(200);
    expect(await search('quokka')).toEqual([]);
    expect(ids(await search('wallaby'))).toEqual([created.id]);
    expect((await author.delete(`/api/pins/${created.id}`)).status).toBe(200);
    expect(await search('wallaby')).toEqual([]);
  });

  test('results are whole pins (owner, counts, tags)', async () => {
    const created = await pin(author, 'Narwhal tusk', 'Arctic #narwhal #Ocean');
    const [found] = await search('narwhal');
    expect(found).toEqual(created);
    expect(found?.tags).toEqual(['narwhal', 'ocean']);
  });
});

describe('paging', () => {
  test('walking the cursors returns each match exactly once, best first', async () => {
    const made: Pin[] = [];
    for (let i = 0; i < 7; i++) made.push(await pin(author, i % 2 ? `Origami crane ${i}` : `Paper fold ${i}`, i % 2 ? '' : 'origami'));
    const walked = await allPages<Pin>(anonymous, '/api/search?q=origami&limit=2', 'pins');
    expect(ids(walked).sort()).toEqual(ids(made).sort());
    // Titles first (ids descending among equals), then descriptions.
    const titled = made.filter((p) => p.title.startsWith('Origami'));
    expect(ids(walked.slice(0, titled.length)).sort()).toEqual(ids(titled).sort());
  });

  test('pins created during a walk wait for the next page one; deleted ones are left out', async () => {
    const made: Pin[] = [];
    for (let i = 0; i < 5; i++) made.push(await pin(author, `Saltmarsh ${i}`, ''));
    const first = await anonymous.get<PinList>('/api/search?q=saltmarsh&limit=2');
    const later = await pin(author, 'Saltmarsh later', '');
    expect((await author.delete(`/api/pins/${made[0]?.id}`)).status).toBe(200);
    const rest = await allPages<Pin>(anonymous, `/api/search?q=saltmarsh&limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`, 'pins');
    const walked = [...ids(first.body.pins), ...ids(rest)];
    expect(walked).not.toContain(later.id);
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked.sort()).toEqual(ids(made.slice(1)).sort());
    expect(ids(await search('saltmarsh'))).toContain(later.id);
  });

  test('a broad query ranks its newest matches, also when they are looked for in a window of recent pins', async () => {
    // 40,000 pins, one in 30 matching: too many to read them all, too few for the newest-first walk,
    // so the newest 500 are looked for among the newest pins only (backend/search/window.ts), with
    // planner statistics as ANALYZE keeps them. A phrase, so the estimate is of that word alone.
    const db = server.server.database.db;
    const { user } = await signUpUser(server.url, 'bulk');
    // In slices: each statement stays well inside the app's statement timeout on a loaded machine.
    for (let from = 1; from <= 40_000; from += 2_500) {
      await sql`
        insert into pins (user_id, title, image_url, description)
        select ${user.id}, case when n % 30 = 0 then 'Pelican ' || n else 'Filler ' || n end, 'https://example.com/bulk.png', ''
        from generate_series(${from}::int, ${from + 2_499}::int) as n`.execute(db);
    }
    await sql`analyze pins`.execute(db);
    const { rows } = await sql<{ id: number }>`select id from pins where title like 'Pelican %' order by id desc limit 500`.execute(db);
    for (const q of ['"pelican"', 'pelican']) {
      const walked = await allPages<Pin>(anonymous, `/api/search?q=${encodeURIComponent(q)}&limit=100`, 'pins');
      expect(walked, q).toHaveLength(500);
      expect(ids(walked).sort(), q).toEqual(rows.map((r) => r.id).sort());
    }
  });

  test('a tampered cursor or one from another query answers 400', async () => {
    const page = await anonymous.get<PinList>('/api/search?q=origami&limit=1');
    const cursor = page.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    for (const path of [
      `/api/search?q=crane&cursor=${encodeURIComponent(cursor)}`,
      `/api/search?q=origami&cursor=${encodeURIComponent(`${cursor}x`)}`,
      `/api/pins/?cursor=${encodeURIComponent(cursor)}`,
    ]) {
      const res = await anonymous.get<ErrorBody>(path);
      expect(res.status, path).toBe(400);
      expect(res.body.fields.cursor).toEqual(expect.any(String));
    }
  });
});

describe('tags', () => {
  test('parsed from the description on create, re-parsed on edit and dropped on delete; counts follow', async () => {
    const tagged = await pin(author, 'Lanterns', 'Festival night #Lantern #Festival #lantern #ＮＩＧＨＴ C#sharp x#y #1 #café');
    expect(tagged.tags).toEqual(['lantern', 'festival', 'night', 'café']);
    expect((await anonymous.get<Pin>(`/api/pins/${tagged.id}`)).body.tags).toEqual(['lantern', 'festival', 'night', 'café']);
    const count = async (tag: string) => (await anonymous.get<Suggestions>(`/api/search/suggest?q=${encodeURIComponent(tag)}`)).body.tags.find((t) => t.tag === tag)?.count ?? 0;
    expect(await count('festival')).toBe(1);

    const edited = await author.put<Pin>(`/api/pins/${tagged.id}`, { title: 'Lanterns', description: 'Now a #parade and still a #festival' });
    expect(edited.body.tags).toEqual(['parade', 'festival']);
    expect(ids(await allPages<Pin>(anonymous, '/api/pins/?tag=lantern', 'pins'))).toEqual([]);
    expect(ids(await allPages<Pin>(anonymous, '/api/pins/?tag=parade', 'pins'))).toEqual([tagged.id]);
    expect(await count('lantern')).toBe(0);
    expect(await count('festival')).toBe(1);

    await pin(author, 'Another festival', '#festival');
    expect(await count('festival')).toBe(2);
    expect((await author.delete(`/api/pins/${tagged.id}`)).status).toBe(200);
    expect(await count('festival')).toBe(1);
    expect(await count('parade')).toBe(0);
  });

  test('at most 20 a pin, the first ones; a tag is at most 50 characters', async () => {
    const many = Array.from({ length: 25 }, (_, i) => `#t${i}x`).join(' ');
    const long = `#${'a'.repeat(51)} #${'b'.repeat(50)}`;
    expect((await pin(author, 'Many tags', many)).tags).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}x`));
    expect((await pin(author, 'Long tags', long)).tags).toEqual(['b'.repeat(50)]);
  });

  test('pins carry tags in lists and in the change log', async () => {
    const tagged = await pin(author, 'Heron', 'At the pond #birds #pond');
    const list = await anonymous.get<PinList>('/api/pins/?limit=5');
    expect(list.body.pins.find((p) => p.id === tagged.id)?.tags).toEqual(['birds', 'pond']);
    const changes = await anonymous.get<{ changes: ChangeEntry[] }>('/api/changes?since=0');
    const created = changes.body.changes.find((c) => c.event === 'pin:created' && (c.data as { pin: Pin }).pin.id === tagged.id);
    expect((created?.data as { pin: Pin }).pin.tags).toEqual(['birds', 'pond']);
  });

  test('an edit leaves no replaced tag in the change log (its earlier rows carry the new tags)', async () => {
    const tagged = await pin(author, 'Secretive', 'Plans for #surpriseparty');
    expect((await author.put(`/api/pins/${tagged.id}`, { title: 'Secretive', description: 'Nothing to see #garden' })).status).toBe(200);
    const changes = await anonymous.get<{ changes: ChangeEntry[] }>('/api/changes?since=0');
    const rows = changes.body.changes.filter((c) => (c.event === 'pin:created' || c.event === 'pin:updated') && (c.data as { pin: Pin }).pin.id === tagged.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('surpriseparty');
    for (const row of rows) expect((row.data as { pin: Pin }).pin.tags).toEqual(['garden']);
  });

  test("GET /api/pins/?tag= lists a tag's pins newest first, any case, # optional, paged exactly once", async () => {
    const made: Pin[] = [];
    for (let i = 0; i < 5; i++) made.push(await pin(author, `Tide pool ${i}`, `#TidePool number ${i}`));
    await pin(author, 'Not in it', '#tidepools');
    const expected = ids(made).reverse();
    expect(ids(await allPages<Pin>(anonymous, '/api/pins/?tag=tidepool&limit=2', 'pins'))).toEqual(expected);
    expect(ids(await allPages<Pin>(anonymous, '/api/pins/?tag=TIDEPOOL', 'pins'))).toEqual(expected);
    expect(ids(await allPages<Pin>(anonymous, `/api/pins/?tag=${encodeURIComponent('#tidePool')}`, 'pins'))).toEqual(expected);
    expect(ids(await allPages<Pin>(anonymous, '/api/pins/?tag=unusedtagname', 'pins'))).toEqual([]);
    for (const bad of ['', '#', 'two words', 'a-b', 'x'.repeat(51), '123', '%00']) {
      const res = await anonymous.get<ErrorBody>(`/api/pins/?tag=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.fields.tag).toEqual(expect.any(String));
    }
    expect((await anonymous.get('/api/pins/?tag=tidepool&order=shuffle&seed=1')).status).toBe(400);
    expect((await anonymous.get('/api/pins/?tag=tidepool&userId=1')).status).toBe(400);
  });
});

describe('the type-ahead', () => {
  test('tags by prefix, most used first, topped up with look-alikes; users by prefix; at most 8 each', async () => {
    for (let i = 0; i < 3; i++) await pin(author, 'Volcano', '#volcanic');
    await pin(author, 'Volcano', '#volcano');
    for (let i = 0; i < 9; i++) await pin(author, 'Glacier', `#glacier${i}`);
    const { user } = await signUpUser(server.url, 'volcanologist');
    const res = await anonymous.get<Suggestions>('/api/search/suggest?q=see%20%23VOLC');
    expect(res.status).toBe(200);
    expect(res.body.tags.slice(0, 2)).toEqual([
      { tag: 'volcanic', count: 3 },
      { tag: 'volcano', count: 1 },
    ]);
    expect(res.body.users).toContainEqual({ id: user.id, username: user.username });
    expect((await anonymous.get<Suggestions>('/api/search/suggest?q=glacier')).body.tags).toHaveLength(8);
    expect((await anonymous.get<Suggestions>('/api/search/suggest?q=volcanoe')).body.tags.map((t) => t.tag)).toContain('volcano');
  });
});

describe('related pins', () => {
  test('pins sharing tags, rarer and more shared first, never the pin itself, paged exactly once', async () => {
    const subject = await pin(author, 'Okapi', '#okapi #rainforest');
    const both = await pin(author, 'Okapi again', '#okapi #rainforest');
    const rare = await pin(author, 'Okapi calf', '#okapi');
    const common: Pin[] = [];
    for (let i = 0; i < 4; i++) common.push(await pin(author, `Canopy ${i}`, '#rainforest'));
    const unrelated = await pin(author, 'Desert', '#dunes');
    const walked = await allPages<Pin>(anonymous, `/api/pins/${subject.id}/related?limit=2`, 'pins');
    expect(ids(walked)).not.toContain(subject.id);
    expect(ids(walked)).not.toContain(unrelated.id);
    expect(new Set(ids(walked)).size).toBe(walked.length);
    expect(ids(walked)).toEqual([both.id, rare.id, ...ids(common).reverse()]);
  });

  test("a private board's contents count only for its members", async () => {
    const owner = await signUpUser(server.url, 'boardowner');
    const collaborator = await signUpUser(server.url, 'boardcollab');
    const stranger = await signUpUser(server.url, 'stranger');
    // No word, tag or colour in common: only the board relates them (others get the author's other pins).
    const first = await pin(author, 'Untagged teapot', 'no tags here');
    const second = await pin(owner.client, 'Copper kettle', 'none here either');
    const board = await owner.client.post<Board>('/api/boards/', { name: 'Kitchen secrets' });
    for (const p of [first, second]) expect((await owner.client.post(`/api/boards/${board.body.id}/pins`, { pin_id: p.id })).status).toBe(201);
    expect((await owner.client.post(`/api/boards/${board.body.id}/members`, { username: collaborator.user.username })).status).toBe(201);

    const related = async (client: ApiClient) => ids((await client.get<PinList>(`/api/pins/${first.id}/related`)).body.pins);
    expect(await related(owner.client)).toEqual([second.id]);
    expect(await related(collaborator.client)).toEqual([second.id]);
    for (const outsider of [stranger.client, anonymous, author]) expect(await related(outsider)).not.toContain(second.id);
    // A cursor is the reader's own.
    const page = await owner.client.get<PinList>(`/api/pins/${first.id}/related?limit=1`);
    expect(page.body.nextCursor).toBeNull();
  });

  test('an unknown pin answers 404', async () => {
    expect((await anonymous.get('/api/pins/2147483646/related')).status).toBe(404);
  });
});

describe('odd input answers 400 or 200, never 500', () => {
  const odd = [
    '',
    ' ',
    '\t',
    '"',
    '""',
    '" "',
    '"""',
    '-',
    '--',
    '- -',
    '-"',
    '-""',
    'or',
    'OR or',
    'or -',
    'a or',
    'or a',
    '!',
    '&',
    '|',
    '!!',
    '&&',
    '||',
    '(',
    ')',
    '()',
    '<->',
    '<2>',
    ':*',
    'a:*',
    "'",
    "''",
    "a'b",
    '\\',
    '\\\\',
    '%',
    '_',
    '*',
    '?',
    '^',
    '~',
    '$1',
    '${x}',
    '--comment',
    '/* */',
    '\u0000',
    'a\u0000b',
    '\u0007\u001b',
    '\u202e',
    '\u200b',
    '\ufeff',
    '😀',
    '🏔️ mountains',
    '👨‍👩‍👧',
    '\u0301\u0301\u0301',
    'e\u0301',
    '東京',
    'مرحبا',
    'שלום',
    'ǅ',
    'ß',
    'İstanbul',
    'the',
    'the -cat',
    'the or a',
    '"the"',
    '-the',
    'a b c d e f g h i j k l m n o p q r s t u v w x y z',
    "'); drop table pins; --",
    'x'.repeat(200),
    `${'ab '.repeat(66)}ab`,
    '-'.repeat(200),
    '"'.repeat(200),
    'or '.repeat(66),
    'x'.repeat(201),
    'é'.repeat(201),
  ];
  test.each(odd.map((q) => [JSON.stringify(q).slice(0, 40), q]))('search and suggest %s', async (_label, q) => {
    for (const path of ['/api/search', '/api/search/suggest']) {
      const res = await anonymous.get<ErrorBody | PinList>(`${path}?q=${encodeURIComponent(q)}`);
      expect([200, 400], `${path} ${JSON.stringify(q)}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      if (res.status === 400) expect((res.body as ErrorBody).fields.q).toEqual(expect.any(String));
    }
  });

  test('blank and over-long queries answer 400 naming q; a missing q too', async () => {
    for (const q of ['', '   ', 'x'.repeat(201)]) {
      expect((await anonymous.get<ErrorBody>(`/api/search?q=${encodeURIComponent(q)}`)).body.fields.q).toEqual(expect.any(String));
    }
    expect((await anonymous.get('/api/search')).status).toBe(400);
    expect((await anonymous.get('/api/search?q=a&q=b')).status).toBe(400);
    expect((await anonymous.get('/api/search/suggest')).status).toBe(400);
  });
});

describe('migration 20261127_0012_search', () => {
  test('down removes the search tables and columns; up brings them back and tags the pins already there', async () => {
    const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
    const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' });
    const tables = async () =>
      (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_name in ('tags', 'pin_tags', 'search_words') order by 1`.execute(database.db)).rows.map(
        (r) => r.name,
      );
    try {
      await migrateToLatest(database.db);
      expect(await tables()).toEqual(['pin_tags', 'search_words', 'tags']);
      const migrator = new Migrator({ db: database.db, provider: migrationProvider });
      const down = await migrator.migrateTo('20261126_0009_image_references');
      expect(down.error).toBeUndefined();
      expect(await tables()).toEqual([]);
      await sql`insert into users (email, username, username_skeleton, password_hash) values ('m@example.test', 'migrator', 'migrator', 'x')`.execute(database.db);
      await sql`insert into pins (user_id, title, image_url, description) select id, 'Old pin', 'https://example.com/o.png', 'Written before #Search existed' from users`.execute(database.db);
      expect(await migrateToLatest(database.db)).toContain('20261127_0012_search');
      const { rows } = await sql<{ tags: string[]; found: boolean }>`
        select tags, search @@ plainto_tsquery('english', 'written') as found from pins`.execute(database.db);
      expect(rows).toEqual([{ tags: ['search'], found: true }]);
      expect((await sql<{ pin_count: number }>`select pin_count from tags where tag = 'search'`.execute(database.db)).rows).toEqual([{ pin_count: 1 }]);
    } finally {
      await database.close();
      await created?.drop();
    }
  });
});
