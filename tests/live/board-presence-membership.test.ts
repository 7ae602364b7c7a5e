import { afterAll, describe, expect, test } from 'vitest';
import type { WatchAck } from '../../contract/events.ts';
import type { Board } from '../../contract/boards.ts';
import { PRESENCE_MESSAGES, type PresentUser } from '../../contract/presence.ts';
import type { User } from '../../contract/users.ts';
import { Redis } from 'ioredis';
import { type ApiClient, signUpUser } from '../support/client.ts';
import { REDIS_URL } from '../support/database.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { connectSocket, eventsNamed, type TestSocket } from '../support/sockets.ts';
import { type ServerContext, useTestServer } from '../support/use-test-server.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Board presence follows membership: a member removed from a board (or everyone, when the board is
// deleted) leaves its presence at once, on every instance their sockets are on, stops hearing
// `board:presence`, and cannot join it again; the heartbeat drops anyone no longer a member even
// when no event said so. On two instances with Redis and on one in-process instance.

// A heartbeat far beyond the bounds below: only the removal itself can drop an entry in time.
const SLOW = { PRESENCE_TTL_SECONDS: '2400', PRESENCE_HEARTBEAT_SECONDS: '1200' };
// A quick heartbeat, for the membership it checks.
const QUICK = { PRESENCE_TTL_SECONDS: '3', PRESENCE_HEARTBEAT_SECONDS: '1' };
const CHANGE_MS = BOUNDS.eventMs;

const sockets: TestSocket[] = [];
afterAll(() => {
  for (const socket of sockets) socket.disconnect();
});

async function socketOn(server: { url: string }, client: ApiClient): Promise<TestSocket> {
  const socket = await connectSocket(server.url, client);
  sockets.push(socket);
  return socket;
}

function join(socket: TestSocket, boardId: number): Promise<WatchAck> {
  return new Promise((resolve) => {
    (socket.emit as (event: string, payload: unknown, ack: (answer: WatchAck) => void) => void)('presence:join', { boardId }, resolve);
  });
}

const presences = (socket: TestSocket, boardId: number) => (eventsNamed(socket, 'board:presence') as Array<{ boardId: number; users: PresentUser[] }>).filter((p) => p.boardId === boardId);
const namesIn = (users: PresentUser[] | undefined) => (users ?? []).map((u) => u.username).sort();
const names = (...users: User[]) => users.map((u) => u.username).sort();

/** Waits until the socket's latest `board:presence` lists exactly these users. */
async function expectPresent(socket: TestSocket, boardId: number, users: User[], label: string, boundMs = CHANGE_MS): Promise<void> {
  const took = await timeUntil(boundMs, () => JSON.stringify(namesIn(presences(socket, boardId).at(-1)?.users)) === JSON.stringify(names(...users)));
  console.log(`board presence: ${label} after ${formatMs(took, boundMs)}`);
  expect(namesIn(presences(socket, boardId).at(-1)?.users)).toEqual(names(...users));
}

async function boardWith(owner: { client: ApiClient }, ...members: Array<{ user: User }>): Promise<Board> {
  const board = (await owner.client.post<Board>('/api/boards/', { name: 'Present company' })).body;
  for (const member of members) expect((await owner.client.post(`/api/boards/${board.id}/members`, { username: member.user.username })).status).toBe(201);
  return board;
}

const bothParts = (server: ServerContext) => ({ one: server, two: server });

describe.each([
  { mode: 'two instances with Redis', redis: true },
  { mode: 'one instance, in process', redis: false },
])('$mode', ({ redis }) => {
  // In process, the one instance plays both parts.
  const app = redis ? useTwoInstances({ env: SLOW }) : bothParts(useTestServer({ db: 'pglite', env: SLOW }));

  test("a removed member leaves the board's presence at once: no longer listed, hears nothing more, cannot join again", async () => {
    const owner = await signUpUser(app.one.url, 'pmo');
    const removed = await signUpUser(app.two.url, 'pmr');
    const later = await signUpUser(app.one.url, 'pml');
    const board = await boardWith(owner, removed);
    const ownerTab = await socketOn(app.one, owner.client);
    const removedTabs = [await socketOn(app.two, removed.client), await socketOn(app.one, removed.client)];
    for (const socket of [ownerTab, ...removedTabs]) expect(await join(socket, board.id)).toEqual({ ok: true });
    await expectPresent(ownerTab, board.id, [owner.user, removed.user], 'both members listed');

    expect((await owner.client.delete(`/api/boards/${board.id}/members/${removed.user.id}`)).status).toBe(200);
    await expectPresent(ownerTab, board.id, [owner.user], 'the removed member gone (no heartbeat in time)');
    const heardBefore = removedTabs.map((socket) => presences(socket, board.id).length);

    // A member added after the removal joins: the owner hears it, the removed member's tabs do not.
    expect((await owner.client.post(`/api/boards/${board.id}/members`, { username: later.user.username })).status).toBe(201);
    const laterTab = await socketOn(app.two, later.client);
    expect(await join(laterTab, board.id)).toEqual({ ok: true });
    await expectPresent(ownerTab, board.id, [owner.user, later.user], 'a later member listed');
    // The same emit reached every socket in the room on both instances by the time both of these have it.
    await expectPresent(laterTab, board.id, [owner.user, later.user], 'the later member hears it too');
    expect(removedTabs.map((socket) => presences(socket, board.id).length)).toEqual(heardBefore);
    for (const socket of removedTabs) expect(JSON.stringify(presences(socket, board.id))).not.toContain(later.user.username);

    // Joining again is refused like any non-member's join.
    for (const socket of removedTabs) expect(await join(socket, board.id)).toEqual({ ok: false, error: PRESENCE_MESSAGES.boardNotFound });
  });

  test("a deleted board's presence is left by every member's sockets and its entries are dropped", async () => {
    const owner = await signUpUser(app.one.url, 'pdo');
    const member = await signUpUser(app.two.url, 'pdm');
    const board = await boardWith(owner, member);
    const ownerTab = await socketOn(app.one, owner.client);
    const memberTab = await socketOn(app.two, member.client);
    for (const socket of [ownerTab, memberTab]) expect(await join(socket, board.id)).toEqual({ ok: true });
    await expectPresent(memberTab, board.id, [owner.user, member.user], 'both listed');
    expect((await owner.client.delete(`/api/boards/${board.id}`)).status).toBe(200);
    // Sockets that were present are asked again too: a board that is gone has no presence to join.
    for (const socket of [ownerTab, memberTab]) expect(await join(socket, board.id)).toEqual({ ok: false, error: PRESENCE_MESSAGES.boardNotFound });
    if (redis) {
      const key = `${app.one.config.socketChannel}:presence:board:${board.id}`;
      const store = new Redis(REDIS_URL);
      try {
        const took = await timeUntil(CHANGE_MS, async () => (await store.zcard(key)) === 0);
        console.log(`board presence: the deleted board's entries gone from Redis after ${formatMs(took, CHANGE_MS)}`);
        expect(await store.zcard(key)).toBe(0);
      } finally {
        store.disconnect();
      }
    }
  });
});

describe.each([
  { mode: 'Redis', redis: true },
  { mode: 'in process', redis: false },
])('the heartbeat checks membership ($mode)', ({ redis }) => {
  const server = useTestServer(redis ? { db: 'postgres', redis: true, env: QUICK } : { db: 'pglite', env: QUICK });

  test('a member whose membership ended without any event (written straight to the database) is dropped at the next heartbeat', async () => {
    const owner = await signUpUser(server.url, 'phb');
    const member = await signUpUser(server.url, 'phm');
    const board = await boardWith(owner, member);
    const ownerTab = await socketOn(server, owner.client);
    const memberTab = await socketOn(server, member.client);
    for (const socket of [ownerTab, memberTab]) expect(await join(socket, board.id)).toEqual({ ok: true });
    await expectPresent(ownerTab, board.id, [owner.user, member.user], 'both listed');
    await server.server.database.db.deleteFrom('board_members').where('board_id', '=', board.id).where('user_id', '=', member.user.id).execute();
    await expectPresent(ownerTab, board.id, [owner.user], 'the ex-member dropped by the heartbeat');
    expect(await join(memberTab, board.id)).toEqual({ ok: false, error: PRESENCE_MESSAGES.boardNotFound });
  });
});
