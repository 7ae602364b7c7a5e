import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ChangesAnswer } from '../../contract/changes.ts';
import type { BoardPage } from '../../contract/boards.ts';
import type { FavoriteList } from '../../contract/favorites.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import type { Suggestions } from '../../contract/search.ts';
import type { UserProfile } from '../../contract/users.ts';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { timeUntil } from '../support/eventually.ts';
import { newBoard, newComment, newPin } from '../support/factories.ts';
import { eventsNamed, type TestSocket, watch } from '../support/sockets.ts';
import { TokenClient } from '../support/token-client.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';
import { jpeg } from '../support/image-fixtures.ts';

// Who sees a private pin (docs/who-sees-what.md): its owner and the members of the boards that hold
// it — nobody else, on any path. One table of read paths; each row says what it answers for the
// private pin, and whether its viewers (owner, member) find it there (the discovery surfaces —
// home, search, tags — hold public pins only, for everyone). Every other reader — a stranger, an
// anonymous visitor, another user's token, a member removed from the board — must find nothing:
// not the pin, not its title in a suggestion, not its count, not its event, not a copy cached by the
// other instance. A new read path is one more row.

const instances = useTwoInstances();

type Reader = ApiClient | TokenClient | undefined;
interface Actors {
  owner: ApiClient;
  member: ApiClient;
  stranger: ApiClient;
  token: TokenClient;
  removed: ApiClient;
}

let actors: Actors;
let ownerId: number;
let ownerName: string;
let secret: Pin;
let boardId: number;
let open: Pin;
const word = `zebra${randomBytes(4).toString('hex')}`;
const tag = `gift${randomBytes(4).toString('hex')}`;

/** GET as the reader: a client with a session, a bearer token, or nobody (a fresh anonymous visitor). */
async function read<T>(reader: Reader, path: string, on: 'one' | 'two' = 'one'): Promise<{ status: number; body: T }> {
  const base = instances[on].url;
  if (reader instanceof TokenClient) return new TokenClient(base, reader.secret).get<T>(path);
  if (reader) {
    const answer = await fetch(base + path, { headers: { cookie: [...reader.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    return { status: answer.status, body: (await answer.json()) as T };
  }
  const answer = await fetch(base + path);
  return { status: answer.status, body: (await answer.json()) as T };
}

/** Waits (generously: a loaded CI machine) until `check` holds; fails naming `what` if it never does. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  if ((await timeUntil(20_000, check)) === undefined) throw new Error(`${what}: not within 20 s`);
}

const holds = (list: { pins: Array<{ id: number }> }, id: number) => list.pins.some((pin) => pin.id === id);

interface Row {
  path: string;
  /** Whether the private pin shows for this reader. */
  shows: (reader: Reader) => Promise<boolean>;
  /** Whether its viewers (the owner, a member) find it there; for `owner-only`, the owner alone does. */
  viewers: 'see' | 'owner-only' | 'none';
}

const rows: Row[] = [
  { path: 'GET /api/pins/{id}', viewers: 'see', shows: async (r) => (await read<Pin>(r, `/api/pins/${secret.id}`)).status === 200 },
  { path: 'GET /api/pins/{id} on the other instance (its cache)', viewers: 'see', shows: async (r) => (await read<Pin>(r, `/api/pins/${secret.id}`, 'two')).status === 200 },
  { path: 'GET /api/comments/pins/{id}/comments', viewers: 'see', shows: async (r) => (await read(r, `/api/comments/pins/${secret.id}/comments`)).status === 200 },
  { path: 'GET /api/pins/{id}/related', viewers: 'see', shows: async (r) => (await read(r, `/api/pins/${secret.id}/related`)).status === 200 },
  { path: 'GET /api/pins/ (newest)', viewers: 'none', shows: async (r) => holds((await read<PinList>(r, '/api/pins/?limit=100')).body, secret.id) },
  { path: 'GET /api/pins/ on the other instance', viewers: 'none', shows: async (r) => holds((await read<PinList>(r, '/api/pins/?limit=100', 'two')).body, secret.id) },
  { path: 'GET /api/pins/?order=shuffle (home)', viewers: 'none', shows: async (r) => holds((await read<PinList>(r, '/api/pins/?order=shuffle&seed=7&limit=100')).body, secret.id) },
  { path: 'GET /api/pins/?userId= (a profile)', viewers: 'owner-only', shows: async (r) => holds((await read<PinList>(r, `/api/pins/?userId=${ownerId}&limit=100`)).body, secret.id) },
  { path: 'GET /api/pins/?tag= (a tag page)', viewers: 'none', shows: async (r) => holds((await read<PinList>(r, `/api/pins/?tag=${tag}`)).body, secret.id) },
  { path: 'GET /api/search', viewers: 'none', shows: async (r) => holds((await read<PinList>(r, `/api/search?q=${word}`)).body, secret.id) },
  {
    path: 'GET /api/search/suggest (its tag and count)',
    viewers: 'none',
    shows: async (r) => {
      const { body } = await read<Suggestions>(r, `/api/search/suggest?q=${tag.slice(0, 8)}`);
      // The open pin carries the tag too: one pin is what everyone may count.
      return body.tags.some((found) => found.tag === tag && found.count !== 1);
    },
  },
  { path: 'GET /api/pins/{open}/related', viewers: 'none', shows: async (r) => holds((await read<PinList>(r, `/api/pins/${open.id}/related`)).body, secret.id) },
  { path: "GET /api/users/lookup (the profile's count)", viewers: 'owner-only', shows: async (r) => (await read<UserProfile>(r, `/api/users/lookup?username=${ownerName}`)).body.pin_count !== 1 },
  {
    path: 'GET /api/favorites/ (favorited while it could be seen)',
    viewers: 'see',
    shows: async (r) => r !== undefined && !(r instanceof TokenClient) && (await read<FavoriteList>(r, '/api/favorites/')).body.pins.some((favorite) => favorite.pin_id === secret.id),
  },
  {
    path: 'GET /api/changes',
    viewers: 'see',
    shows: async (r) => {
      const { body } = await read<ChangesAnswer>(r, '/api/changes?since=0');
      return JSON.stringify('changes' in body ? body.changes : []).includes(word) || ('changes' in body && body.changes.some((change) => JSON.stringify(change.data).includes(`"pinId":${secret.id}`)));
    },
  },
  {
    path: 'GET /api/boards/{id} (a public board that holds it: its pins and its count)',
    viewers: 'see',
    shows: async (r) => {
      const { status, body } = await read<BoardPage>(r, `/api/boards/${boardId}`);
      return status === 200 && (body.pin_count !== 0 || body.pins.some((pin) => pin.id === secret.id));
    },
  },
  {
    path: 'GET /api/pins/lookup',
    viewers: 'owner-only',
    shows: async (r) => r !== undefined && holds((await read<PinList>(r, `/api/pins/lookup?sourceUrl=${encodeURIComponent('https://gifts.example/anna')}`)).body, secret.id),
  },
];

beforeAll(async () => {
  const url = instances.one.url;
  const [owner, member, stranger, removed] = await Promise.all(['owner', 'member', 'stranger', 'removed'].map((name) => signUpUser(url, name)));
  ownerId = owner!.user.id;
  ownerName = owner!.user.username;
  const made = await stranger!.client.post<{ secret: string }>('/api/tokens', { name: 'script', scope: 'read' });
  actors = { owner: owner!.client, member: member!.client, stranger: stranger!.client, token: new TokenClient(url, made.body.secret), removed: removed!.client };

  const board = await newBoard(actors.owner, 'Gift ideas for Anna');
  boardId = board.id;
  for (const who of [member!, removed!]) expect((await actors.owner.post(`/api/boards/${board.id}/members`, { username: who.user.username })).status).toBe(201);
  // Made into a private board: private, unless its maker says otherwise.
  const created = await actors.owner.post<Pin>('/api/pins/', {
    title: `A ${word} scarf`,
    imageUrl: 'https://a.test/scarf.png',
    description: `For her birthday #${tag}`,
    sourceUrl: 'https://gifts.example/anna',
    boardId: board.id,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  secret = created.body;
  expect(secret.visibility).toBe('private');
  open = await newPin(actors.owner, { title: 'An open pin', description: `Also #${tag}` });
  expect(open.visibility).toBe('public');
  await newComment(actors.member, secret.id, `Love the ${word}`);
  for (const who of [actors.owner, actors.member, actors.removed]) expect((await who.post('/api/favorites/', { pin_id: secret.id })).status).toBe(201);
  // The board itself is public: anyone reads it, but its private pins stay its members'.
  expect((await actors.owner.patch(`/api/boards/${board.id}`, { visibility: 'public' })).status).toBe(200);
  // Removed from the board: no longer one of its viewers.
  expect((await actors.owner.delete(`/api/boards/${board.id}/members/${removed!.user.id}`)).status).toBe(200);
}, 60_000);

describe('a private pin is absent for everyone but its viewers, on every path', () => {
  const outsiders = ['stranger', 'anonymous', 'token', 'removed'] as const;
  const who = (name: (typeof outsiders)[number] | 'owner' | 'member'): Reader => (name === 'anonymous' ? undefined : actors[name]);

  test.each(rows.map((row) => [row.path, row] as const))('%s', async (_path, row) => {
    for (const name of outsiders) expect(await row.shows(who(name)), `${name} finds it`).toBe(false);
    expect(await row.shows(actors.owner), 'the owner finds it').toBe(row.viewers !== 'none');
    expect(await row.shows(actors.member), 'a member finds it').toBe(row.viewers === 'see');
  });

  test('only its viewers may favorite it, comment on it or put it on a board', async () => {
    for (const outsider of [actors.stranger, actors.removed]) {
      expect((await outsider.post('/api/favorites/', { pin_id: secret.id })).status).toBe(404);
      expect((await outsider.post(`/api/comments/pins/${secret.id}/comments`, { text: 'hi' })).status).toBe(404);
      const theirs = await newBoard(outsider, 'Mine');
      expect((await outsider.post(`/api/boards/${theirs.id}/pins`, { pin_id: secret.id })).status).toBe(404);
    }
    // A member sees it, but putting it on a board of theirs would show it to that board's members.
    const membersOwn = await newBoard(actors.member, 'Elsewhere');
    expect((await actors.member.post(`/api/boards/${membersOwn.id}/pins`, { pin_id: secret.id })).status).toBe(403);
  });
});

describe("a private pin's picture", () => {
  test('is served under its content hash and kept by the browser alone; shown by a public pin too, it is public', async () => {
    const uploaded = await actors.owner.upload<{ image: { url: string; thumbnails: Record<string, string> } }>('/api/images/', { bytes: await jpeg(320, 240), name: 'gift.jpg' });
    expect(uploaded.status).toBe(201);
    const { url } = uploaded.body.image;
    expect(url).toMatch(/[0-9a-f]{64}/);
    const board = await newBoard(actors.owner, 'Hidden pictures');
    const made = await actors.owner.post<Pin>('/api/pins/', { title: 'Hidden picture', imageUrl: url, boardId: board.id });
    expect(made.body.visibility).toBe('private');
    const cacheOf = async () => (await fetch(instances.two.url + url)).headers.get('cache-control');
    expect(await cacheOf()).toBe('private, max-age=31536000, immutable');
    await newPin(actors.owner, { title: 'The same picture, in the open', imageUrl: url });
    expect(await cacheOf()).toBe('public, max-age=31536000, immutable');
  });
});

describe('live: sockets hear a private pin only as its viewers', () => {
  test("a like and a comment reach the viewers' sockets and no one else's, even a socket that watched it while it was public", async () => {
    const sockets: Record<string, TestSocket> = {};
    for (const [name, client] of [
      ['owner', actors.owner],
      ['member', actors.member],
      ['stranger', actors.stranger],
      ['removed', actors.removed],
      ['anonymous', undefined],
    ] as const) {
      sockets[name] = await instances.socket(instances.two, client);
      expect(await watch(sockets[name]!, { pinIds: [secret.id, open.id] })).toEqual({ ok: true });
    }
    const started = Date.now();
    await newComment(actors.owner, secret.id, `The ${word} in blue`);
    expect((await actors.member.post('/api/favorites/', { pin_id: secret.id })).status).toBe(200); // favorited already: no change
    const [favorite] = (await actors.owner.get<FavoriteList>('/api/favorites/')).body.pins.filter((pin) => pin.pin_id === secret.id);
    expect((await actors.owner.delete(`/api/favorites/${favorite!.id}`)).status).toBe(200);
    await until(() => ['owner', 'member'].every((name) => eventsNamed(sockets[name]!, 'comment:created').length > 0 && eventsNamed(sockets[name]!, 'pin:likes').length > 0), 'heard');
    console.log(`the viewers heard the comment and the like on the other instance in ${Date.now() - started} ms`);
    // An event for the open pin, sent after the private ones, reaches everyone: the outsiders have heard all they will.
    await newComment(actors.member, open.id, 'Nice');
    await until(() => ['stranger', 'removed', 'anonymous'].every((name) => eventsNamed(sockets[name]!, 'comment:created').length > 0), 'heard');
    for (const name of ['stranger', 'removed', 'anonymous']) {
      const heard = JSON.stringify([...eventsNamed(sockets[name]!, 'comment:created'), ...eventsNamed(sockets[name]!, 'pin:likes')]);
      expect(heard, name).not.toContain(word);
      expect(heard, name).not.toContain(`"pinId":${secret.id}`);
    }
  });

  test('made private, an open pin is deleted for the others on the other instance; made public again, it comes back', async () => {
    const pin = await newPin(actors.owner, { title: `Soon hidden ${word}` });
    const anonymous = await instances.socket(instances.two);
    const stranger = await instances.socket(instances.two, actors.stranger);
    const owner = await instances.socket(instances.two, actors.owner);
    const hidden = await actors.owner.put<Pin>(`/api/pins/${pin.id}`, { visibility: 'private' });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    expect(hidden.body).toMatchObject({ visibility: 'private', title: pin.title, description: pin.description });
    const deletedFor = (socket: TestSocket) => eventsNamed(socket, 'pin:deleted').some((event) => (event as { pinId: number }).pinId === pin.id);
    const createdFor = (socket: TestSocket) => eventsNamed(socket, 'pin:created').some((event) => (event as { pin: Pin }).pin.id === pin.id);
    await until(() => deletedFor(anonymous) && deletedFor(stranger), 'heard');
    // Its owner is told it again, as it now is, and never that it is gone (their tabs would blink).
    await until(() => eventsNamed(owner, 'pin:created').some((event) => (event as { pin: Pin }).pin.id === pin.id && (event as { pin: Pin }).pin.visibility === 'private'), 'heard');
    expect(deletedFor(owner)).toBe(false);
    expect((await read(undefined, `/api/pins/${pin.id}`, 'two')).status).toBe(404);
    // Its earlier public rows left the log with it.
    expect(JSON.stringify((await read<ChangesAnswer>(undefined, '/api/changes?since=0', 'two')).body)).not.toContain(`Soon hidden ${word}`);

    expect((await actors.owner.put<Pin>(`/api/pins/${pin.id}`, { visibility: 'public' })).body.visibility).toBe('public');
    await until(() => createdFor(anonymous) && createdFor(stranger), 'heard');
    expect((await read(undefined, `/api/pins/${pin.id}`, 'two')).status).toBe(200);
  });
});
