import { describe, expect, test } from 'vitest';
import type { BoardLinkCreated, BoardLinkList, LinkedBoardPage } from '../../contract/board-links.ts';
import type { Board, BoardList, BoardPage } from '../../contract/boards.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import { allPages, ApiClient, sameSessionOn, signUpUser } from '../support/client.ts';
import { addToBoard, newBoard, newPin } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Public boards and secret read-only links (docs/board-sharing.md, "Public boards and links").

const server = useTestServer();

type Person = Awaited<ReturnType<typeof signUpUser>>;

/** A board of `owner`'s with `count` pins, and a collaborator on it. */
async function boardWithPins(owner: Person, count: number, name = 'Linked') {
  const board = await newBoard(owner.client, name);
  const pins = [];
  for (let i = 0; i < count; i++) {
    const pin = await newPin(owner.client, `pin ${i}`);
    await addToBoard(owner.client, board.id, pin.id);
    pins.push(pin);
  }
  return { board, pins };
}

const secretOf = (url: string) => url.slice('/b/'.length);

function expectNotFound(res: { status: number; body: unknown }) {
  expect(res.status).toBe(404);
  expect(Object.keys(res.body as ErrorBody).sort()).toEqual(['errors', 'fields', 'message']);
}

describe('public boards', () => {
  test('a board is private by default; the owner makes it public and anyone reads it, signed out too, read-only', async () => {
    const owner = await signUpUser(server.url, 'pubown');
    const stranger = await signUpUser(server.url, 'pubstr');
    const anonymous = new ApiClient(server.url);
    const { board, pins } = await boardWithPins(owner, 3, 'Open board');
    expect(board.visibility).toBe('private');
    expectNotFound(await anonymous.get(`/api/boards/${board.id}`));
    expectNotFound(await stranger.client.get(`/api/boards/${board.id}`));

    const made = await owner.client.patch<Board>(`/api/boards/${board.id}`, { visibility: 'public' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ visibility: 'public', name: 'Open board', role: 'owner' });

    for (const reader of [anonymous, stranger.client]) {
      const page = await reader.get<BoardPage>(`/api/boards/${board.id}?limit=2`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ id: board.id, role: 'viewer', visibility: 'public', pin_count: 3 });
      expect(page.body.pins.map((p) => p.id)).toEqual([pins[2]?.id, pins[1]?.id]);
      const all = await allPages<BoardPage['pins'][number]>(reader, `/api/boards/${board.id}?limit=2`, 'pins');
      expect(all.map((p) => p.id)).toEqual([...pins].reverse().map((p) => p.id));
    }
    // Read-only: a viewer changes nothing (404, as for any non-member).
    const extra = await newPin(stranger.client, 'not yours to add');
    expectNotFound(await stranger.client.post(`/api/boards/${board.id}/pins`, { pin_id: extra.id }));
    expectNotFound(await stranger.client.patch(`/api/boards/${board.id}`, { name: 'Mine' }));
    expectNotFound(await stranger.client.get(`/api/boards/${board.id}/links`));
    expect((await anonymous.post(`/api/boards/${board.id}/pins`, { pin_id: extra.id })).status).toBe(401);

    // Private again: gone for outsiders on their next read.
    expect((await owner.client.patch<Board>(`/api/boards/${board.id}`, { visibility: 'private' })).body.visibility).toBe('private');
    expectNotFound(await anonymous.get(`/api/boards/${board.id}`));
  });

  test('only the owner changes visibility; bad values and empty bodies are 400 and change nothing', async () => {
    const owner = await signUpUser(server.url, 'visown');
    const collaborator = await signUpUser(server.url, 'viscol');
    const board = await newBoard(owner.client, 'Guarded');
    expect((await owner.client.post(`/api/boards/${board.id}/members`, { username: collaborator.user.username })).status).toBe(201);
    const refused = await collaborator.client.patch<ErrorBody>(`/api/boards/${board.id}`, { visibility: 'public' });
    expect(refused.status).toBe(403);
    for (const body of [{ visibility: 'everyone' }, {}, { visibility: null }, { name: '', visibility: 'public' }]) {
      const res = await owner.client.patch<ErrorBody>(`/api/boards/${board.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    expect((await owner.client.get<Board>(`/api/boards/${board.id}`)).body).toMatchObject({ visibility: 'private', name: 'Guarded' });
    // Both at once.
    const both = await owner.client.patch<Board>(`/api/boards/${board.id}`, { name: 'Shown', visibility: 'public' });
    expect(both.body).toMatchObject({ name: 'Shown', visibility: 'public' });
    // The collaborator still reads it as a collaborator.
    expect((await collaborator.client.get<Board>(`/api/boards/${board.id}`)).body.role).toBe('collaborator');
  });

  test("a profile lists the user's public boards to anyone, and the private ones only to their members", async () => {
    const ann = await signUpUser(server.url, 'profann');
    const ben = await signUpUser(server.url, 'profben');
    const names = async (viewer: ApiClient, limit = 1) => (await allPages<Board>(viewer, `/api/users/${ann.user.id}/boards?limit=${limit}`, 'boards')).map((b) => `${b.name}:${b.role}`);
    const hidden = await newBoard(ann.client, 'hidden');
    const shown = await newBoard(ann.client, 'shown');
    const sharedPublic = await newBoard(ann.client, 'shared public');
    const sharedPrivate = await newBoard(ann.client, 'shared private');
    for (const b of [shown, sharedPublic]) await ann.client.patch(`/api/boards/${b.id}`, { visibility: 'public' });
    for (const b of [sharedPublic, sharedPrivate]) await ann.client.post(`/api/boards/${b.id}/members`, { username: ben.user.username });
    expect(hidden.id).toBeLessThan(shown.id);

    // Signed out: the public ones only, newest first, page by page.
    expect(await names(new ApiClient(server.url))).toEqual(['shared public:viewer', 'shown:viewer']);
    // A stranger: the same.
    const cat = await signUpUser(server.url, 'profcat');
    expect(await names(cat.client, 50)).toEqual(['shared public:viewer', 'shown:viewer']);
    // A member: the public ones and the ones shared with them, each once.
    expect(await names(ben.client)).toEqual(['shared private:collaborator', 'shared public:collaborator', 'shown:viewer']);
    expect(await names(ben.client, 50)).toEqual(['shared private:collaborator', 'shared public:collaborator', 'shown:viewer']);
    // One's own profile: every board.
    expect((await names(ann.client, 50)).length).toBe(4);
    const page = (await new ApiClient(server.url).get<BoardList>(`/api/users/${ann.user.id}/boards`)).body;
    expect(page.boards.every((b) => b.visibility === 'public')).toBe(true);
  });
});

describe("a public board's private pins", () => {
  test('viewers see only its public pins (page and covers); members and link holders see them all', async () => {
    const owner = await signUpUser(server.url, 'privown');
    const stranger = await signUpUser(server.url, 'privstr');
    const board = await newBoard(owner.client, 'Mixed');
    const shown = await newPin(owner.client, 'shown to all');
    const secretPin = (await owner.client.post<{ id: number }>('/api/pins/', { title: 'members only', imageUrl: 'https://a.test/p.png', visibility: 'private' })).body;
    for (const pin of [shown, secretPin]) await addToBoard(owner.client, board.id, pin.id);
    await owner.client.patch(`/api/boards/${board.id}`, { visibility: 'public' });
    for (const viewer of [new ApiClient(server.url), stranger.client]) {
      const page = (await viewer.get<BoardPage>(`/api/boards/${board.id}`)).body;
      expect(page.pins.map((p) => p.title)).toEqual(['shown to all']);
      const listed = (await viewer.get<BoardList>(`/api/users/${owner.user.id}/boards`)).body.boards;
      expect(listed.find((b) => b.id === board.id)?.pins.map((p) => p.title)).toEqual(['shown to all']);
    }
    expect((await owner.client.get<BoardPage>(`/api/boards/${board.id}`)).body.pins.map((p) => p.title)).toEqual(['members only', 'shown to all']);
    const link = (await owner.client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`, {})).body.link;
    const linked = (await new ApiClient(server.url).get<LinkedBoardPage>(`/api/links/${secretOf(link.url)}`)).body;
    expect(linked.pins.map((p) => p.title)).toEqual(['members only', 'shown to all']);
  });
});

describe('secret links', () => {
  test('the owner makes a link; anyone opens it, signed out too, and pages through every pin; revoked → 404', async () => {
    const owner = await signUpUser(server.url, 'lnkown');
    const { board, pins } = await boardWithPins(owner, 5, 'Holiday');
    const made = await owner.client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`, {});
    expect(made.status).toBe(201);
    expect(made.body.link).toEqual({ id: expect.any(Number), url: expect.stringMatching(/^\/b\/[A-Za-z0-9_-]{43}$/), createdAt: expect.any(String), hint: made.body.link.url.slice(-4) });
    const secret = secretOf(made.body.link.url);

    const anonymous = new ApiClient(server.url);
    const first = await anonymous.get<LinkedBoardPage>(`/api/links/${secret}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('x-robots-tag')).toMatch(/noindex/);
    expect(first.body.board).toEqual({ id: board.id, name: 'Holiday', pin_count: 5 });
    expect(first.body.pins.map((p) => p.id)).toEqual([pins[4]?.id, pins[3]?.id]);
    const all = await allPages<LinkedBoardPage['pins'][number]>(anonymous, `/api/links/${secret}?limit=2`, 'pins');
    expect(all.map((p) => p.id)).toEqual([...pins].reverse().map((p) => p.id));
    // The board stays private: the link is the only way in.
    expectNotFound(await anonymous.get(`/api/boards/${board.id}`));

    // The list never shows a secret.
    const listed = await owner.client.get<BoardLinkList>(`/api/boards/${board.id}/links`);
    expect(listed.body).toEqual({ links: [{ id: made.body.link.id, createdAt: made.body.link.createdAt, hint: made.body.link.hint }] });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const revoked = await owner.client.delete(`/api/boards/${board.id}/links/${made.body.link.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ message: 'Link revoked', board_id: board.id, link_id: made.body.link.id });
    expectNotFound(await anonymous.get(`/api/links/${secret}`));
    expectNotFound(await owner.client.delete(`/api/boards/${board.id}/links/${made.body.link.id}`));
    expect((await owner.client.get<BoardLinkList>(`/api/boards/${board.id}/links`)).body.links).toEqual([]);
  });

  test('unknown, malformed, and deleted-board secrets are all 404 with the error shape; a cursor belongs to its link', async () => {
    const owner = await signUpUser(server.url, 'lnkbad');
    const anonymous = new ApiClient(server.url);
    for (const bad of ['x'.repeat(43), 'short', 'A'.repeat(44), '%00', `${'a'.repeat(42)}!`, encodeURIComponent('a'.repeat(42) + '/')]) {
      expectNotFound(await anonymous.get(`/api/links/${bad}`));
    }
    const { board } = await boardWithPins(owner, 3, 'Doomed');
    const one = (await owner.client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`, {})).body.link;
    const two = (await owner.client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`, {})).body.link;
    const page = (await anonymous.get<LinkedBoardPage>(`/api/links/${secretOf(one.url)}?limit=1`)).body;
    expect(page.nextCursor).not.toBeNull();
    expect((await anonymous.get(`/api/links/${secretOf(two.url)}?cursor=${encodeURIComponent(page.nextCursor ?? '')}`)).status).toBe(400);
    expect((await anonymous.get(`/api/links/${secretOf(one.url)}?limit=0`)).status).toBe(400);
    expect((await owner.client.delete(`/api/boards/${board.id}`)).status).toBe(200);
    expectNotFound(await anonymous.get(`/api/links/${secretOf(one.url)}`));
    expectNotFound(await anonymous.get(`/api/links/${secretOf(two.url)}`));
  });

  test('only the owner makes, lists and revokes links: collaborator 403, anyone else 404, signed out 401', async () => {
    const owner = await signUpUser(server.url, 'lnkacl');
    const collaborator = await signUpUser(server.url, 'lnkcol');
    const stranger = await signUpUser(server.url, 'lnkstr');
    const board = await newBoard(owner.client, 'Owned');
    expect((await owner.client.post(`/api/boards/${board.id}/members`, { username: collaborator.user.username })).status).toBe(201);
    const link = (await owner.client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`, {})).body.link;
    const calls = [
      (c: ApiClient) => c.post(`/api/boards/${board.id}/links`, {}),
      (c: ApiClient) => c.get(`/api/boards/${board.id}/links`),
      (c: ApiClient) => c.delete(`/api/boards/${board.id}/links/${link.id}`),
    ];
    for (const call of calls) {
      expect((await call(collaborator.client)).status).toBe(403);
      expect((await call(stranger.client)).status).toBe(404);
      expect((await call(new ApiClient(server.url))).status).toBe(401);
    }
    // Another board's link id is not this board's.
    const other = await newBoard(owner.client, 'Other');
    expectNotFound(await owner.client.delete(`/api/boards/${other.id}/links/${link.id}`));
    expect((await owner.client.get<BoardLinkList>(`/api/boards/${board.id}/links`)).body.links.map((l) => l.id)).toEqual([link.id]);
  });

  test('a board holds at most 20 links at once, also when asked for concurrently', async () => {
    const owner = await signUpUser(server.url, 'lnkcap');
    const board = await newBoard(owner.client, 'Capped');
    const answers = await Promise.all(Array.from({ length: 25 }, () => owner.client.post(`/api/boards/${board.id}/links`, {})));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    expect((await owner.client.get<BoardLinkList>(`/api/boards/${board.id}/links`)).body.links).toHaveLength(20);
  });
});

describe('links across instances', () => {
  const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

  test('a link revoked on one instance is refused by the other within a second (at once, in fact)', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = await signUpUser(app.one.url, 'lnkinst');
      const { board } = await boardWithPins(owner, 1, `Round ${round}`);
      const link = (await owner.client.post<BoardLinkCreated>(`/api/boards/${board.id}/links`, {})).body.link;
      const onOne = new ApiClient(app.one.url);
      expect((await onOne.get(`/api/links/${secretOf(link.url)}`)).status).toBe(200);
      expect((await onOne.get(`/api/links/${secretOf(link.url)}`)).status).toBe(200);
      const revokedAt = performance.now();
      expect((await sameSessionOn(app.two.url, owner.client).delete(`/api/boards/${board.id}/links/${link.id}`)).status).toBe(200);
      let refusedAfter = Number.POSITIVE_INFINITY;
      while (performance.now() - revokedAt < 1_000) {
        if ((await onOne.get(`/api/links/${secretOf(link.url)}`)).status === 404) {
          refusedAfter = performance.now() - revokedAt;
          break;
        }
      }
      expect(refusedAfter).toBeLessThan(1_000);
    }
  });
});
