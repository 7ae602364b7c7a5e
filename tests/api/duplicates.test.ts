import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CommentList } from '../../contract/comments.ts';
import type { DuplicateGroups, DuplicatePins, ImageUploaded, Merged, MergeUndone } from '../../contract/duplicates.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { FavoriteList } from '../../contract/favorites.ts';
import type { BoardPage } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { addToBoard, newBoard, newComment } from '../support/factories.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Duplicates among a user's own pins (docs/duplicates.md) on the real server and database: the
// pictures' perceptual hashes are set in SQL (what processing would find), with known Hamming
// distances, and every answer is read as a client would.

const server = useTestServer();
const db = () => server.server.database.db;

let ann: ApiClient;
let bob: ApiClient;
let cat: ApiClient;
beforeAll(async () => {
  ({ client: ann } = await signUpUser(server.url, 'dupann'));
  ({ client: bob } = await signUpUser(server.url, 'dupbob'));
  ({ client: cat } = await signUpUser(server.url, 'dupcat'));
});

/** A pin's comments' texts, sorted. */
const commentTexts = async (pinId: number) => (await ann.get<CommentList>(`/api/comments/pins/${pinId}/comments`)).body.comments.map((c) => c.text).sort();

/** A 64-bit hash as the signed bigint Postgres stores. */
const signed = (hash: bigint) => BigInt.asIntN(64, hash).toString();
const BASE = 0x0123_4567_89ab_cdefn;
/** BASE with the lowest `bits` bits flipped, each in its own byte when `spread` (no byte left equal past 8). */
const flipped = (bits: number, spread = false) => {
  let hash = BASE;
  for (let i = 0; i < bits; i++) hash ^= 1n << BigInt(spread ? i * 8 : i);
  return hash;
};

const upload = (client: ApiClient, bytes: Buffer) => client.upload<ImageUploaded>('/api/images/', { bytes, name: 'p.jpg', type: 'image/jpeg' });

/** The stored image of these uploaded bytes (its row keeps the sha256 of the bytes as received). */
async function storedSha(bytes: Buffer): Promise<string> {
  const received = createHash('sha256').update(bytes).digest('hex');
  return (await db().selectFrom('images').select('sha256').where('source_sha256', '=', received).executeTakeFirstOrThrow()).sha256;
}

async function setHashes(sha256: string, phash: bigint, mirror: bigint): Promise<void> {
  await sql`update images set phash = ${signed(phash)}::bigint, phash_mirror = ${signed(mirror)}::bigint where sha256 = ${sha256}`.execute(db());
}

async function pinOf(client: ApiClient, url: string, title: string): Promise<Pin> {
  const answer = await client.post<Pin>('/api/pins/', { title, imageUrl: url });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** A stored picture (bytes of `size`) with these hashes, and a pin of it by `client`. */
async function pictureAndPin(client: ApiClient, size: number, title: string, phash: bigint, mirror = ~phash): Promise<{ pin: Pin; bytes: Buffer; sha256: string }> {
  const bytes = await jpeg(size, 30);
  const stored = await upload(client, bytes);
  expect(stored.status).toBe(201);
  const sha256 = await storedSha(bytes);
  await setHashes(sha256, phash, mirror);
  return { pin: await pinOf(client, stored.body.image.url, title), bytes, sha256 };
}

describe('POST /api/images/ answers the caller’s look-alikes', () => {
  let original: { pin: Pin; bytes: Buffer; sha256: string };
  let board: number;
  beforeAll(async () => {
    original = await pictureAndPin(ann, 40, 'Original', BASE);
    board = (await newBoard(ann, 'Kitchen')).id;
    await addToBoard(ann, board, original.pin.id);
  });

  test('a picture never saved has no duplicates', async () => {
    const answer = await upload(ann, await jpeg(97, 30));
    expect(answer.status).toBe(201);
    expect(answer.body.duplicates).toEqual([]);
  });

  test('the same bytes again: the pin that has them, with its board', async () => {
    const answer = await upload(ann, original.bytes);
    expect(answer.body.duplicates.map((d) => [d.pin.id, d.pin.title])).toEqual([[original.pin.id, 'Original']]);
    expect(answer.body.duplicates[0]?.boards).toEqual([{ id: board, name: 'Kitchen' }]);
  });

  test('a near picture (3 bits off), a mirrored one, one 8 bits off in every byte; not 9 bits off, nor someone else’s', async () => {
    const cases: Array<[string, bigint, bigint, boolean]> = [
      ['near', flipped(3), ~BASE, true],
      ['mirrored', ~BASE, flipped(1), true],
      ['eight spread', flipped(8, true), ~BASE, true],
      ['nine', flipped(9), ~BASE, false],
    ];
    let size = 50;
    for (const [name, phash, mirror, found] of cases) {
      const bytes = await jpeg(size++, 30);
      const first = await upload(ann, bytes);
      const sha256 = await storedSha(bytes);
      expect(first.body.duplicates, name).toEqual([]);
      await setHashes(sha256, phash, mirror);
      // Uploaded again: its row now has hashes, as processing would have written them.
      const again = await upload(ann, bytes);
      expect(
        again.body.duplicates.map((d) => d.pin.id),
        name,
      ).toEqual(found ? [original.pin.id] : []);
      // Bob has no pin of it: the same upload finds nothing of Ann's.
      expect((await upload(bob, bytes)).body.duplicates, name).toEqual([]);
    }
  });
});

describe('a user with many pins: the pictures sharing a byte lead the look-up', () => {
  test('7 bits off in 7 bytes is found, 8 bits off in every byte is not (docs/duplicates.md)', async () => {
    const { client: dee, user } = await signUpUser(server.url, 'dupdee');
    const HASH = 0x5555_aaaa_5555_aaaan;
    const mine = (await pictureAndPin(dee, 200, 'Many pins', HASH)).pin;
    // As if Dee had more pins than the band side reads pictures (the count is a kept column).
    await sql`update users set pin_count = 1000000000 where id = ${user.id}`.execute(db());
    const seven = await pictureAndPin(dee, 201, 'Seven spread', HASH ^ 0x0001_0101_0101_0101n);
    const eight = await pictureAndPin(bob, 202, 'Eight spread', HASH ^ 0x0101_0101_0101_0101n);
    expect((await dee.get<DuplicatePins>(`/api/pins/${seven.pin.id}/duplicates`)).body.pins.map((pin) => pin.id)).toEqual([mine.id]);
    // Bob's picture is 1 bit from Seven, 8 from Dee's first (no byte in common).
    expect((await dee.get<DuplicatePins>(`/api/pins/${eight.pin.id}/duplicates`)).body.pins.map((pin) => pin.id)).toEqual([seven.pin.id]);
    // Uploaded again: the same bytes, and the near one.
    expect((await upload(dee, seven.bytes)).body.duplicates.map((d) => d.pin.id)).toEqual([seven.pin.id, mine.id]);
  });
});

describe('GET /api/pins/{id}/duplicates, the Duplicates page, merge and undo', () => {
  const HASH = 0x7777_0000_ffff_1234n;
  let older: Pin;
  let newer: Pin;
  let bobsPin: Pin;
  let board: number;
  beforeAll(async () => {
    older = (await pictureAndPin(ann, 120, 'Older', HASH)).pin;
    newer = (await pictureAndPin(ann, 121, 'Newer', HASH ^ 0b1010n)).pin;
    bobsPin = (await pictureAndPin(bob, 122, 'Bob’s', HASH ^ 1n)).pin;
    board = (await newBoard(ann, 'Merged board')).id;
    await addToBoard(ann, board, newer.id);
    expect((await bob.post('/api/favorites/', { pin_id: newer.id })).status).toBe(201);
    // One comment per author and pin: Bob's on both cannot both stay on the kept pin.
    await newComment(cat, newer.id, 'Lovely');
    await newComment(bob, newer.id, 'Also mine');
    await newComment(bob, older.id, 'Nice');
  });

  test('a pin’s look-alikes are the caller’s own, never itself', async () => {
    const mine = await ann.get<DuplicatePins>(`/api/pins/${older.id}/duplicates`);
    expect(mine.status).toBe(200);
    expect(mine.body.pins.map((pin) => pin.id)).toEqual([newer.id]);
    // On Bob's pin: Ann's pins that look like it ("you saved this already").
    const onBobs = await ann.get<DuplicatePins>(`/api/pins/${bobsPin.id}/duplicates`);
    expect(onBobs.body.pins.map((pin) => pin.id)).toEqual([newer.id, older.id]);
    // Bob's own look-alikes of Ann's pin: none but his.
    expect((await bob.get<DuplicatePins>(`/api/pins/${older.id}/duplicates`)).body.pins.map((pin) => pin.id)).toEqual([bobsPin.id]);
  });

  test('a pin the caller may not see is 404; a bad id 400; signed out 401', async () => {
    expect((await bob.put(`/api/pins/${bobsPin.id}`, { visibility: 'private' })).status).toBe(200);
    expect((await ann.get<ErrorBody>(`/api/pins/${bobsPin.id}/duplicates`)).status).toBe(404);
    expect((await ann.get(`/api/pins/999999999/duplicates`)).status).toBe(404);
    expect((await ann.get('/api/pins/abc/duplicates')).status).toBe(400);
    expect((await fetch(`${server.url}/api/pins/${older.id}/duplicates`)).status).toBe(401);
  });

  test('the Duplicates page lists the group once, newest first; Bob’s pins never', async () => {
    const pins: number[][] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: DuplicateGroups } = await ann.get<DuplicateGroups>(`/api/duplicates${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      pins.push(...page.body.groups.map((group) => group.pins.map((pin) => pin.id)));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(pins).toContainEqual([newer.id, older.id]);
    expect(pins.flat()).not.toContain(bobsPin.id);
    expect(new Set(pins.flat()).size).toBe(pins.flat().length);
    expect((await ann.get('/api/duplicates?cursor=nonsense')).status).toBe(400);
  });

  test('bad merges: 400 for bad input, 403 for someone else’s pins, 404 for none', async () => {
    for (const body of [
      {},
      { keep: older.id },
      { keep: older.id, merge: [] },
      { keep: older.id, merge: [older.id] },
      { keep: older.id, merge: [newer.id, newer.id] },
      { keep: 'x', merge: [newer.id] },
    ]) {
      expect((await ann.post<ErrorBody>('/api/duplicates/merge', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await bob.post('/api/duplicates/merge', { keep: bobsPin.id, merge: [older.id] })).status).toBe(403);
    expect((await ann.post('/api/duplicates/merge', { keep: older.id, merge: [999999999] })).status).toBe(404);
    // Bob's private pin is not Ann's to know of.
    expect((await ann.post('/api/duplicates/merge', { keep: older.id, merge: [bobsPin.id] })).status).toBe(404);
  });

  test('merge moves boards, favorites and comments to the pin kept and deletes the other; undo restores it', async () => {
    const merged = await ann.post<Merged>('/api/duplicates/merge', { keep: older.id, merge: [newer.id] });
    expect(merged.status).toBe(200);
    expect(merged.body.merged).toEqual([newer.id]);
    expect(merged.body.kept.likes_count).toBe(1);
    expect((await ann.get(`/api/pins/${newer.id}`)).status).toBe(404);
    expect((await ann.get<BoardPage>(`/api/boards/${board}`)).body.pins.map((pin) => pin.id)).toEqual([older.id]);
    expect((await bob.get<FavoriteList>('/api/favorites/')).body.pins.map((f) => f.pin_id)).toEqual([older.id]);
    expect(await commentTexts(older.id)).toEqual(['Lovely', 'Nice']);
    expect((await ann.get<DuplicatePins>(`/api/pins/${older.id}/duplicates`)).body.pins).toEqual([]);

    // Someone else cannot undo it; its owner can, once.
    expect((await bob.post('/api/duplicates/merge/undo', { mergeId: merged.body.mergeId })).status).toBe(403);
    expect((await ann.post('/api/duplicates/merge/undo', { mergeId: 'x' })).status).toBe(400);
    const undone = await ann.post<MergeUndone>('/api/duplicates/merge/undo', { mergeId: merged.body.mergeId });
    expect(undone.status).toBe(200);
    expect(undone.body.restored.map((pin) => [pin.id, pin.title, pin.likes_count])).toEqual([[newer.id, 'Newer', 1]]);
    expect(undone.body.kept.likes_count).toBe(0);
    expect((await ann.get<Pin>(`/api/pins/${newer.id}`)).body.title).toBe('Newer');
    expect((await ann.get<BoardPage>(`/api/boards/${board}`)).body.pins.map((pin) => pin.id)).toEqual([newer.id]);
    expect((await bob.get<FavoriteList>('/api/favorites/')).body.pins.map((f) => f.pin_id)).toEqual([newer.id]);
    expect(await commentTexts(newer.id)).toEqual(['Also mine', 'Lovely']);
    expect(await commentTexts(older.id)).toEqual(['Nice']);
    expect((await ann.post('/api/duplicates/merge/undo', { mergeId: merged.body.mergeId })).status).toBe(404);
  });

  test('a merge sent again with its Idempotency-Key gets the same answer', async () => {
    const headers = { 'Idempotency-Key': 'merge-once-1234' };
    const first = await ann.request<Merged>('POST', '/api/duplicates/merge', { json: { keep: older.id, merge: [newer.id] }, headers });
    const again = await ann.request<Merged>('POST', '/api/duplicates/merge', { json: { keep: older.id, merge: [newer.id] }, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.mergeId).toBe(first.body.mergeId);
  });
});
