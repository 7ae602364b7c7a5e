// "More like this" (docs/search.md): pins without a single #tag are related by the words of their
// titles, by their colours and by look-alike pictures (which rank first); with nothing alike, the
// author's newest pins stand in, so the list is never empty for a pin with a title. Never the pin
// itself, never a pin the reader may not see, and paged exactly once. What processing sees in a
// picture (colours, palette, perceptual hashes) is set here with SQL, as processing would store it.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Pin, PinList } from '../../contract/pins.ts';
import { allPages, type ApiClient, signUpUser } from '../support/client.ts';
import { newBoard } from '../support/factories.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();
const db = () => server.server.database.db;

let author: ApiClient;
let other: ApiClient;
let anonymous: ApiClient;

beforeAll(async () => {
  author = (await signUpUser(server.url, 'likethis')).client;
  other = (await signUpUser(server.url, 'alsolike')).client;
  anonymous = (await signUpUser(server.url, 'reader')).client;
});

interface Seen {
  colors?: string[];
  palette?: Array<{ hex: string; share: number }>;
  /** 64-bit perceptual hash (as an unsigned value here; stored signed). */
  phash?: bigint;
  phashMirror?: bigint;
}

let width = 40;
/** A pin with an uploaded picture of its own, and what processing saw in it. */
async function pictured(client: ApiClient, title: string, seen: Seen = {}, extra: Record<string, unknown> = {}): Promise<Pin> {
  width += 1;
  const uploaded = await client.upload<{ image: { url: string } }>('/api/images/', { bytes: await jpeg(width, 30), name: `p${width}.jpg` });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const made = await client.post<Pin>('/api/pins/', { title, imageUrl: uploaded.body.image.url, ...extra });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const { image_sha256: sha256 } = await db().selectFrom('pins').select('image_sha256').where('id', '=', made.body.id).executeTakeFirstOrThrow();
  expect(sha256).not.toBeNull();
  await db()
    .updateTable('images')
    .set({
      colors: seen.colors ?? [],
      palette: JSON.stringify(seen.palette ?? []),
      phash: seen.phash === undefined ? null : BigInt.asIntN(64, seen.phash).toString(),
      phash_mirror: seen.phashMirror === undefined ? null : BigInt.asIntN(64, seen.phashMirror).toString(),
    })
    .where('sha256', '=', sha256!)
    .execute();
  return made.body;
}

async function related(pin: Pin, reader: ApiClient = anonymous, limit = 100): Promise<number[]> {
  const res = await reader.get<PinList>(`/api/pins/${pin.id}/related?limit=${limit}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.pins.map((p) => p.id);
}

/** `hash` with these bits flipped. */
const flip = (hash: bigint, ...bits: number[]) => bits.reduce((h, bit) => h ^ (1n << BigInt(bit)), hash);

describe('More like this', () => {
  test("an untagged pin is related by the words of its title; never itself; others' private pins never", async () => {
    const subject = await pictured(author, 'Lighthouse on a granite headland');
    const twoWords = await pictured(other, 'Granite lighthouse in fog');
    const oneWord = await pictured(other, 'Painting a lighthouse');
    const unrelated = await pictured(other, 'Birthday cake with candles');
    const board = await newBoard(other, 'Secret lights');
    const hidden = await pictured(other, 'Lighthouse granite headland', {}, { boardId: board.id });
    expect(hidden.visibility).toBe('private');

    const ids = await related(subject);
    expect(ids.slice(0, 2)).toEqual([twoWords.id, oneWord.id]);
    expect(ids).not.toContain(subject.id);
    expect(ids).not.toContain(unrelated.id);
    expect(ids).not.toContain(hidden.id);
    expect(await related(subject, author)).not.toContain(hidden.id);
  });

  test('an untagged pin whose words match nothing is related by colours, closest palette first', async () => {
    const red = [
      { hex: '#cc2222', share: 0.6 },
      { hex: '#f4f4f4', share: 0.4 },
    ];
    const subject = await pictured(author, 'Qwzx', { colors: ['red', 'white'], palette: red });
    const close = await pictured(other, 'Vrumbl', {
      colors: ['red', 'white'],
      palette: [
        { hex: '#c82525', share: 0.7 },
        { hex: '#fafafa', share: 0.3 },
      ],
    });
    const redOnly = await pictured(other, 'Plonk', {
      colors: ['red', 'black'],
      palette: [
        { hex: '#aa1111', share: 0.5 },
        { hex: '#111111', share: 0.5 },
      ],
    });
    const blue = await pictured(other, 'Snarf', { colors: ['blue'], palette: [{ hex: '#2233cc', share: 1 }] });
    const board = await newBoard(other, 'Red secrets');
    const hidden = await pictured(other, 'Glorp', { colors: ['red', 'white'], palette: red }, { boardId: board.id });
    // The copies on the pins follow their images (a trigger), which the colour look-up reads.
    expect((await db().selectFrom('pins').select('colors').where('id', '=', close.id).executeTakeFirstOrThrow()).colors).toEqual(['red', 'white']);

    const ids = await related(subject);
    expect(ids).toEqual([close.id, redOnly.id]);
    expect(ids).not.toContain(blue.id);
    expect(ids).not.toContain(hidden.id);
  });

  test('a look-alike picture ranks first, mirrored ones too, above shared tags and words', async () => {
    const hash = 0x8f3a_5c21_d4e6_7b09n;
    const mirror = 0x1234_5678_9abc_def0n;
    const subject = await pictured(author, 'Morning harbour boats', { phash: hash, phashMirror: mirror }, { description: '#harbour #boats' });
    const wordsAndTags = await pictured(other, 'Morning harbour boats again', {}, { description: '#harbour #boats' });
    const reEncoded = await pictured(other, 'Xyzzy one', { phash: flip(hash, 3, 17, 40) });
    const mirrored = await pictured(other, 'Xyzzy two', { phash: flip(mirror, 60) });
    // Twenty bits apart (but sharing bands): not the same picture.
    const different = await pictured(other, 'Xyzzy three', { phash: flip(hash, ...Array.from({ length: 20 }, (_, i) => 8 + i * 2)) });

    const ids = await related(subject);
    expect(ids.slice(0, 3)).toEqual([mirrored.id, reEncoded.id, wordsAndTags.id]);
    expect(ids).not.toContain(different.id);
    expect(ids).not.toContain(subject.id);
  });

  test("with nothing alike: the author's newest public pins, or the newest public pins; never empty, never itself", async () => {
    const loner = await signUpUser(server.url, 'loner');
    const first = await pictured(loner.client, 'Quux');
    const board = await newBoard(loner.client, 'Private things');
    const privateOne = await pictured(loner.client, 'Blorf', {}, { boardId: board.id });
    const subject = await pictured(loner.client, 'Zyzzyva');
    expect(await related(subject)).toEqual([first.id]);
    // The author reading it: still only what anyone sees on discovery lists.
    expect(await related(subject, loner.client)).toEqual([first.id]);
    expect(await related(subject, loner.client)).not.toContain(privateOne.id);

    const single = await signUpUser(server.url, 'single');
    const only = await pictured(single.client, 'Fnord');
    const ids = await related(only);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain(only.id);
    expect(ids).not.toContain(privateOne.id);
    // Newest first.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  test('paging is exact: every related pin once, in the order of one long page', async () => {
    const subject = await pictured(author, 'Walnut desk lamp');
    for (let i = 0; i < 7; i++) await pictured(other, i % 2 ? `Walnut shelf ${i}` : `Desk lamp walnut ${i}`, { colors: i % 3 ? ['brown'] : [] });
    const whole = await related(subject);
    expect(whole.length).toBeGreaterThanOrEqual(7);
    const walked = await allPages<Pin>(anonymous, `/api/pins/${subject.id}/related?limit=2`, 'pins');
    expect(walked.map((p) => p.id)).toEqual(whole);
    // A pin made during the walk waits for the next first page.
    const first = await anonymous.get<PinList>(`/api/pins/${subject.id}/related?limit=2`);
    const later = await pictured(other, 'Walnut desk lamp too');
    const rest: number[] = first.body.pins.map((p) => p.id);
    for (let cursor = first.body.nextCursor; cursor !== null;) {
      const page = await anonymous.get<PinList>(`/api/pins/${subject.id}/related?limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      rest.push(...page.body.pins.map((p) => p.id));
      cursor = page.body.nextCursor;
    }
    expect(rest).toEqual(whole);
    expect(await related(subject)).toContain(later.id);
  });
});
