import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { boardNameOf, descriptionOf, titleOf } from '../../backend/imports/items.ts';
import { BoardBody, type BoardPage } from '../../contract/boards.ts';
import type { ImportDetail } from '../../contract/imports.ts';
import { LIMITS } from '../../contract/limits.ts';
import { PinCreateBody } from '../../contract/pins.ts';
import { hasHiddenCharacters } from '../../contract/visible-text.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { basePictures, type ImageHost, pictureVariant, startImageHost } from '../support/import-fixtures.ts';
import { honestZip } from '../support/zip-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Names an import makes from text nobody typed into the form (a bookmark file's <H3> and link text,
// a ZIP's folders and pins.csv, an export's boards) follow the rule POST /api/boards applies to a
// typed one (contract/visible-text.ts): nothing a reader cannot see, so no name reads differently
// from what it is (after U+202E the rest shows reversed; "Pho\u200Btos" looks like "Photos").

const boardName = BoardBody.shape.name;
const pinTitle = PinCreateBody.shape.title;

/** Hostile text and what a reader should see of it. */
const HOSTILE: Array<[what: string, text: string, visible: string]> = [
  ['a right-to-left override (RLO)', 'Holiday \u202Egpj.exe', 'Holiday gpj.exe'],
  ['bidi isolates (LRI, RLI, FSI, PDI) and embeddings', '\u2066Left\u2069 \u2067Right\u2069 \u2068First\u2069 \u202Bemb\u202C', 'Left Right First emb'],
  ['bidi marks (LRM, RLM, ALM)', 'A\u200Eb\u200Fc\u061Cd', 'Abcd'],
  ['a zero-width space', 'Pho\u200Btos', 'Photos'],
  ['zero-width joiners and non-joiners between letters', 'Pho\u200Dto\u200Cs', 'Photos'],
  ['a byte order mark, leading and inside', '\uFEFFPho\uFEFFtos', 'Photos'],
  ['NUL', 'Pho\u0000tos', 'Photos'],
  ['C0 controls and DEL', 'A\u0001\u0007\u001B[31mB\u007F', 'A[31mB'],
  ['C1 controls', 'A\u0080\u009B1mB\u009F', 'A1mB'],
  ['soft hyphen, word joiner, Hangul filler, variation selector on a letter', 'Ph\u00ADo\u2060t\u3164o\uFE0Fs', 'Photos'],
  ['tag characters', 'Photos\u{E0041}\u{E007F}', 'Photos'],
  ['tabs, line breaks and separators', ' Summer\tholiday\r\n2024\u2028photos\u2029 \u0085end ', 'Summer holiday 2024 photos end'],
  ['emoji, which need their joiners', '👩‍💻 Work ❤️ 🏳️‍🌈', '👩‍💻 Work ❤️ 🏳️‍🌈'],
  ['nothing but hidden characters', '\u202E\u2066\u2069\u200B\u200D\uFEFF\u0000\u0007\u009B\u00AD \t\n', ''],
];

describe('the cleaning an import gives a name, a title, a description', () => {
  test.each(HOSTILE)('%s: only the visible text is kept, and the API takes it', (_what, text, visible) => {
    for (const clean of [boardNameOf, titleOf]) {
      const name = clean(text);
      expect(name).toBe(visible);
      expect(hasHiddenCharacters(name)).toBe(false);
      if (name) expect(boardName.parse(name)).toBe(name);
      if (name) expect(pinTitle.parse(name)).toBe(name);
      expect(clean(name)).toBe(name);
    }
  });

  test('a description keeps its line breaks, and only them', () => {
    expect(descriptionOf('Line \u202Eone\r\nline\u200B two\u2028three\tfour\u0000')).toBe('Line one\nline two\nthree four');
    expect(descriptionOf('\u202E\u200B\n\u2066')).toBe('');
  });

  test('a long name is cut to the limit as the API counts it, never inside a character or an emoji', () => {
    const emoji = boardNameOf('😀'.repeat(80));
    expect(boardName.parse(emoji)).toBe(emoji);
    expect(emoji).toBe('😀'.repeat(LIMITS.boardName / 2));
    const joined = boardNameOf(`ab${'👩‍💻'.repeat(30)}`);
    expect(boardName.parse(joined)).toBe(joined);
    expect(joined).toBe(`ab${'👩‍💻'.repeat(19)}`);
    const spaced = boardNameOf(`${'x'.repeat(LIMITS.boardName - 1)} \u202Ey`);
    expect(spaced).toBe('x'.repeat(LIMITS.boardName - 1));
  });

  test('whatever the text, the name is empty or one the API takes as it is', () => {
    const pool = [
      'a',
      'Z',
      ' ',
      '\t',
      '\n',
      '\u0000',
      '\u0007',
      '\u007F',
      '\u0085',
      '\u009B',
      '\u00A0',
      '\u00AD',
      '\u061C',
      '\u200B',
      '\u200C',
      '\u200D',
      '\u200E',
      '\u202E',
      '\u2066',
      '\u2069',
      '\u2028',
      '\u3000',
      '\u3164',
      '\uFE0F',
      '\uFEFF',
      '😀',
      '👩',
      '💻',
      '\u{E0041}',
      'é',
      '\u0301',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: 1 + (next() % 160) }, () => pool[next() % pool.length]).join('');
      const name = boardNameOf(text);
      if (name === '') continue;
      expect(boardName.safeParse(name), JSON.stringify(text)).toEqual({ success: true, data: name });
      expect(boardNameOf(name)).toBe(name);
    }
  });
});

// The same through the API: bookmark files, a ZIP of images and a Pinboard export whose names carry
// those characters, imported by an owner who then invites a member; both read the boards back.

const EVENTUALLY_MS = 120_000;
let host: ImageHost;
let pictures: Buffer[];
beforeAll(async () => {
  pictures = await basePictures(3, 320, 240);
  host = await startImageHost(pictures);
}, 120_000);
afterAll(async () => {
  await host?.close();
});
const server = useTestServer(() => ({ env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: host.port, IMAGE_BUDGET_PER_USER: '1000' } }));

async function imported(client: ApiClient, bytes: Buffer | string, name: string, type: string): Promise<ImportDetail> {
  const answer = await client.upload<{ import: { id: number } }>('/api/imports', { bytes: Buffer.from(bytes), name, type });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  const started = Date.now();
  for (;;) {
    const detail = (await client.get<ImportDetail>(`/api/imports/${answer.body.import.id}`)).body;
    if (detail.import.status === 'done' || detail.import.status === 'failed') return detail;
    if (Date.now() - started > EVENTUALLY_MS) throw new Error(`import not done: ${JSON.stringify(detail).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Each board the owner made, as the owner and as an invited member read it: names and pin titles. */
async function boardsAsRead(owner: ApiClient, member: { client: ApiClient; username: string }): Promise<Array<{ name: string; titles: string[] }>> {
  const list = (await owner.get<{ boards: Array<{ id: number }> }>('/api/boards/?limit=100')).body.boards;
  const seen: Array<{ name: string; titles: string[] }> = [];
  for (const { id } of list) {
    expect((await owner.post(`/api/boards/${id}/members`, { username: member.username })).status).toBe(201);
    const mine = (await owner.get<BoardPage>(`/api/boards/${id}?limit=100`)).body;
    const theirs = await member.client.get<BoardPage>(`/api/boards/${id}?limit=100`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.name).toBe(mine.name);
    expect(theirs.body.pins.map((pin) => pin.title)).toEqual(mine.pins.map((pin) => pin.title));
    seen.push({ name: theirs.body.name, titles: theirs.body.pins.map((pin) => pin.title) });
  }
  for (const board of seen) {
    // The API's own schemas take every one of them unchanged.
    expect(boardName.parse(board.name)).toBe(board.name);
    for (const title of board.titles) {
      expect(pinTitle.parse(title)).toBe(title);
      expect(hasHiddenCharacters(title), JSON.stringify(title)).toBe(false);
    }
  }
  return seen.sort((a, b) => a.name.localeCompare(b.name));
}

async function twoUsers() {
  const owner = await signUpUser(server.url, 'namer');
  const member = await signUpUser(server.url, 'invitee');
  return { owner: owner.client, ownerId: owner.user.id, member: { client: member.client, username: member.user.username } };
}

describe('imports through the API', () => {
  test(
    'a bookmark file: <H3> folders and link text lose what does not show',
    async () => {
      const { owner, ownerId, member } = await twoUsers();
      const link = (n: number, text: string) => `<DT><A HREF="https://source.example/${n}" IMAGE="${host.url}/img/${n}.jpg" ADD_DATE="1700000000">${text}</A>`;
      const html = [
        '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
        '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
        '<DL><p>',
        '<DT><H3>Holiday \u202Egpj.exe\u202C &#x200B;photos\u0007</H3>',
        '<DL><p>',
        link(1, 'Beach\u2067 day\u2069\u0000'),
        link(2, '&#x202E;&#x200B;\uFEFF'),
        '</DL><p>',
        '<DT><H3>\u202E\u2066\u200B\u0000&#xFEFF;</H3>',
        '<DL><p>',
        link(3, 'Pho\u200Dtos\u0085 of\u009B cats'),
        '</DL><p>',
        '</DL><p>',
      ].join('\n');
      const detail = await imported(owner, html, 'bookmarks.html', 'text/html');
      expect(detail.import).toMatchObject({ status: 'done', done: 3, failed: 0 });
      // The folder of nothing but hidden characters is no board: its pin is in none.
      expect(await boardsAsRead(owner, member)).toEqual([{ name: 'Holiday gpj.exe photos', titles: ['Beach day', 'source.example'] }]);
      const pins = (await owner.get<{ pins: Array<{ title: string }> }>(`/api/pins/?userId=${ownerId}&limit=100`)).body.pins;
      expect(pins.map((pin) => pin.title).sort()).toEqual(['Beach day', 'Photos of cats', 'source.example']);
    },
    EVENTUALLY_MS + 30_000,
  );

  test(
    'a ZIP of images: folder names and pins.csv boards lose what does not show',
    async () => {
      const { owner, member } = await twoUsers();
      const zip = await honestZip([
        { name: '\u202Egpj.stohP\u200B/cat\u2066 one\u2069.jpg', data: pictureVariant(pictures[0] as Buffer, 101) },
        { name: 'Dogs/dog.jpg', data: pictureVariant(pictures[1] as Buffer, 102) },
        { name: 'pins.csv', data: 'file,title,description,board\nDogs/dog.jpg,"Good\u200B dog\u202E",Woof,"\uFEFFBest\u0007 dogs\u2069"\n' },
      ]);
      const detail = await imported(owner, zip, 'pictures.zip', 'application/zip');
      expect(detail.import).toMatchObject({ status: 'done', done: 2, failed: 0 });
      expect(await boardsAsRead(owner, member)).toEqual([
        { name: 'Best dogs', titles: ['Good dog'] },
        { name: 'gpj.stohP', titles: ['cat one'] },
      ]);
    },
    EVENTUALLY_MS + 30_000,
  );

  test(
    "a Pinboard export: its boards' names lose what does not show; a name of nothing visible is Untitled",
    async () => {
      const { owner, member } = await twoUsers();
      const pin = (key: string, title: string) => ({
        key,
        title,
        description: '',
        tags: [],
        sourceUrl: null,
        createdAt: '2024-01-01T00:00:00.000Z',
        image: `images/${key}.jpg`,
        imageUrl: `/media/${key}.jpg`,
      });
      const manifest = {
        version: 1,
        exportedAt: '2024-01-02T00:00:00.000Z',
        user: { username: 'someone', email: 'someone@example.test' },
        pins: [pin('p1', 'Sun\u202Eset'), pin('p2', '\u200BMoon\u0000')],
        boards: [
          { name: 'Sky\u2067 at\u2069 night\u202E', pins: ['p1', 'p2'], members: [] },
          // (No NUL here: the import keeps the export's boards as they came, in a jsonb column, which refuses it.)
          { name: '\u202E\u200B\u0007\u2069', pins: ['p2'], members: [] },
        ],
        favorites: [],
        comments: [],
      };
      const zip = await honestZip([
        { name: 'pinboard.json', data: JSON.stringify(manifest) },
        { name: 'images/p1.jpg', data: pictureVariant(pictures[0] as Buffer, 201) },
        { name: 'images/p2.jpg', data: pictureVariant(pictures[2] as Buffer, 202) },
      ]);
      const detail = await imported(owner, zip, 'export.zip', 'application/zip');
      expect(detail.import).toMatchObject({ status: 'done', done: 2, failed: 0 });
      expect(await boardsAsRead(owner, member)).toEqual([
        { name: 'Sky at night', titles: ['Sunset', 'Moon'] },
        { name: 'Untitled', titles: ['Moon'] },
      ]);
    },
    EVENTUALLY_MS + 30_000,
  );
});
