import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import yauzl from 'yauzl';
import type { ImportDetail } from '../../contract/imports.ts';
import { type PinboardExport } from '../../contract/pinboard-export.ts';
import type { Pin } from '../../contract/pins.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { jpeg, pngWithAlpha } from '../support/image-fixtures.ts';
import { useTestServer } from '../support/use-test-server.ts';

// The export round-trips (docs/import-export.md): an account with pins (uploaded images, tags,
// sources), ordered boards (one shared), favorites and comments is exported, the ZIP is imported by
// a new user on a fresh instance, and that user's export says the same thing — same pins (titles,
// descriptions, tags, sources, creation times, image bytes), boards with the same pins in the same
// order, favorites and comments — with the collaborator listed back as "not re-invited".

const EVENTUALLY_MS = 180_000;
const source = useTestServer({ env: { IMAGE_BUDGET_PER_USER: '10000' } });
/** The fresh instance the export is imported into. */
const target = useTestServer({ env: { IMAGE_BUDGET_PER_USER: '10000' } });
let alice: ApiClient;

beforeAll(async () => {
  ({ client: alice } = await signUpUser(source.url, 'alice'));
}, 120_000);

/** The entries of a ZIP, name → bytes. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function download(client: ApiClient, url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const headers: Record<string, string> = { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  const response = await fetch(`${url}/api/export`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** An export as a comparable picture: keys replaced by the pins' titles, order kept where it means something. */
function normalised(file: PinboardExport) {
  const title = new Map(file.pins.map((pin) => [pin.key, pin.title]));
  return {
    pins: file.pins
      // A pin without a stored picture keeps the address its owner gave, even one the server refused.
      .map(({ title: t, description, tags, sourceUrl, createdAt, image, imageUrl, visibility }) => ({
        title: t,
        description,
        tags: [...tags].sort(),
        sourceUrl,
        createdAt,
        image,
        visibility,
        address: image ? null : imageUrl,
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
    boards: file.boards.map((board) => ({ name: board.name, pins: board.pins.map((key) => title.get(key)) })),
    favorites: file.favorites.map((key) => title.get(key)).sort(),
    comments: file.comments.map((comment) => ({ pin: title.get(comment.pin), text: comment.text, createdAt: comment.createdAt })).sort((a, b) => String(a.pin).localeCompare(String(b.pin))),
  };
}

describe('export, then import on another instance', () => {
  let exported: Map<string, Buffer>;

  test('GET /api/export streams a ZIP with pinboard.json, the originals, bookmarks.html and pins.csv', async () => {
    const images = [await jpeg(640, 480), await pngWithAlpha(300, 500), await jpeg(500, 900)];
    const pins: Pin[] = [];
    for (const [index, bytes] of images.entries()) {
      const uploaded = await alice.upload<{ image: { url: string } }>('/api/images/', { bytes, name: `p${index}` });
      expect(uploaded.status).toBe(201);
      const created = await alice.post<Pin>('/api/pins/', {
        title: `Pin ${index}`,
        imageUrl: uploaded.body.image.url,
        description: `Number ${index} #round #trip${index}`,
        sourceUrl: index === 1 ? null : `https://example.com/source/${index}`,
      });
      pins.push(created.body);
    }
    // A picture the server will not fetch (a private network's address): the pin has none, and
    // nobody but Alice sees it, yet it is hers and goes with her.
    const refused = await alice.post<Pin>('/api/pins/', { title: 'Pin 3', imageUrl: 'http://10.1.2.3/never.jpg', description: 'No picture #round' });
    expect(refused.status).toBe(201);
    const boardA = (await alice.post<{ id: number }>('/api/boards/', { name: 'Ordered' })).body;
    const boardB = (await alice.post<{ id: number }>('/api/boards/', { name: 'Shared one' })).body;
    for (const pin of [pins[2], pins[0], pins[1]]) await alice.post(`/api/boards/${boardA.id}/pins`, { pin_id: pin?.id });
    await alice.post(`/api/boards/${boardB.id}/pins`, { pin_id: pins[1]?.id });
    const { client: bob, user: bobUser } = await signUpUser(source.url, 'bob');
    expect((await alice.post(`/api/boards/${boardB.id}/members`, { username: bobUser.username })).status).toBe(201);
    await alice.post('/api/favorites/', { pin_id: pins[0]?.id });
    await alice.post('/api/favorites/', { pin_id: pins[2]?.id });
    await alice.post(`/api/comments/pins/${pins[1]?.id}/comments`, { text: 'My own note' });
    // Not Alice's to take: Bob's comment, and Bob's favorite.
    await bob.post(`/api/comments/pins/${pins[0]?.id}/comments`, { text: 'Bob was here' });

    const answer = await download(alice, source.url);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/zip');
    exported = await unzip(answer.bytes);
    const names = [...exported.keys()];
    expect(names.slice(0, 3)).toEqual(['pinboard.json', 'bookmarks.html', 'pins.csv']);
    expect(names.filter((name) => name.startsWith('images/'))).toHaveLength(3);
    const file = JSON.parse((exported.get('pinboard.json') as Buffer).toString('utf8')) as PinboardExport;
    expect(file).toMatchObject({ version: 1, user: { username: expect.stringMatching(/^alice/), email: expect.stringContaining('@') } });
    expect(file.pins.map((pin) => pin.title)).toEqual(['Pin 0', 'Pin 1', 'Pin 2', 'Pin 3']);
    // Each pin's tags are the ones it carries.
    expect(file.pins.slice(0, 3).map((pin) => pin.tags)).toEqual(pins.map((pin) => pin.tags));
    expect(file.pins[3]).toMatchObject({ image: null, imageUrl: 'http://10.1.2.3/never.jpg', visibility: 'public' });
    expect(file.pins[0]?.tags).toEqual(['round', 'trip0']);
    expect(file.boards.map((board) => [board.name, board.members.length])).toEqual([
      ['Shared one', 1],
      ['Ordered', 0],
    ]);
    expect(normalised(file).boards[1]?.pins).toEqual(['Pin 1', 'Pin 0', 'Pin 2']);
    expect(file.comments.map((comment) => comment.text)).toEqual(['My own note']);
    // Each original is the stored file, byte for byte (its name is its sha256).
    for (const pin of file.pins.filter((p) => p.image)) {
      const bytes = exported.get(pin.image as string) as Buffer;
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(/images\/([0-9a-f]{64})\./.exec(pin.image as string)?.[1]);
    }
    const html = (exported.get('bookmarks.html') as Buffer).toString('utf8');
    expect(html).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);
    expect(html.match(/<H3>/g)).toHaveLength(2);
    expect((exported.get('pins.csv') as Buffer).toString('utf8').split('\n')[0]).toBe('file,title,description,source,board');
  }, 120_000);

  test(
    'imported by a new user on a fresh instance, it recreates the same account: no difference',
    async () => {
      const { client: carol, user: carolUser } = await signUpUser(target.url, 'carol');
      const zip = await download(alice, source.url);
      const posted = await carol.upload<{ import: { id: number; kind: string; total: number } }>('/api/imports', { bytes: zip.bytes, name: 'export.zip', type: 'application/zip' });
      expect(posted.status, JSON.stringify(posted.body)).toBe(202);
      expect(posted.body.import).toMatchObject({ kind: 'pinboard', total: 4 });
      const started = Date.now();
      let detail: ImportDetail;
      for (;;) {
        detail = (await carol.get<ImportDetail>(`/api/imports/${posted.body.import.id}`)).body;
        if (detail.import.status === 'done' || detail.import.status === 'failed') break;
        if (Date.now() - started > EVENTUALLY_MS) throw new Error(`import not finished: ${JSON.stringify(detail)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(detail.import).toMatchObject({ status: 'done', done: 4, failed: 0 });
      expect(detail.failures).toEqual([{ item: expect.stringMatching(/^Shared one: bob/), reason: 'not re-invited' }]);

      // The pins carry their tags, parsed from their descriptions as any pin write does.
      const carolPins = (await carol.get<{ pins: Pin[] }>(`/api/pins/?userId=${carolUser.id}&limit=10`)).body.pins;
      expect(carolPins.map((pin) => [pin.title, pin.tags]).sort()).toEqual([
        ['Pin 0', ['round', 'trip0']],
        ['Pin 1', ['round', 'trip1']],
        ['Pin 2', ['round', 'trip2']],
        ['Pin 3', ['round']],
      ]);
      // The pin without a picture came back as it was: its address kept for Carol, shown to nobody else.
      const refused = carolPins.find((pin) => pin.title === 'Pin 3') as Pin;
      expect(refused).toMatchObject({ image: null, image_url: '', visibility: 'public' });
      expect((await carol.get<{ status: string; reason: string }>(`/api/pins/${refused.id}/image-status`)).body).toMatchObject({ status: 'failed', reason: 'blocked_address' });
      expect((await fetch(`${target.url}/api/pins/${refused.id}`)).status).toBe(404);

      const again = await unzip((await download(carol, target.url)).bytes);
      const before = normalised(JSON.parse((exported.get('pinboard.json') as Buffer).toString('utf8')) as PinboardExport);
      const after = normalised(JSON.parse((again.get('pinboard.json') as Buffer).toString('utf8')) as PinboardExport);
      expect(after).toEqual(before);
      // The same image bytes.
      for (const [name, bytes] of exported) if (name.startsWith('images/')) expect(again.get(name)?.equals(bytes), name).toBe(true);
    },
    EVENTUALLY_MS + 60_000,
  );

  test('an export without signing in is refused', async () => {
    const response = await fetch(`${source.url}/api/export`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Array), fields: {} });
  });
});
