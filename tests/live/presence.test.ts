import { afterAll, describe, expect, test } from 'vitest';
import type { WatchAck } from '../../contract/events.ts';
import type { Board } from '../../contract/boards.ts';
import { PRESENCE_LIMITS, PRESENCE_MESSAGES, type PresentUser } from '../../contract/presence.ts';
import { signUpUser } from '../support/client.ts';
import { REDIS_URL } from '../support/database.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import { type AppProcess, startAppProcess } from '../support/processes.ts';
import { newPin } from '../support/factories.ts';
import { eventsNamed, type TestSocket, watch } from '../support/sockets.ts';
import { useTestServer } from '../support/use-test-server.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Presence (docs/presence.md) on two instances sharing Postgres and Redis, plus a third instance in
// its own process that is killed with SIGKILL. A short TTL and heartbeat (config) so that a crashed
// instance's entries expire within seconds; the bound below derives from them.
const TTL_SECONDS = 3;
const HEARTBEAT_SECONDS = 1;
const env = { PRESENCE_TTL_SECONDS: String(TTL_SECONDS), PRESENCE_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS) };
/** A join or leave reaches everyone within the emit interval (1 s); 4× slack like BOUNDS. */
const CHANGE_MS = BOUNDS.eventMs;
/** A crashed instance's entries are gone after the TTL, noticed at the next heartbeat. */
const CRASH_MS = 4 * (TTL_SECONDS + HEARTBEAT_SECONDS) * 1000;

const app = useTwoInstances({ env });

function send(socket: TestSocket, event: 'presence:join' | 'presence:leave', payload: unknown): Promise<WatchAck> {
  return new Promise((resolve) => {
    (socket.emit as (event: string, payload: unknown, ack: (answer: WatchAck) => void) => void)(event, payload, resolve);
  });
}

/** The last count this socket heard for the pin. */
function lastViewers(socket: TestSocket, pinId: number): number | undefined {
  const counts = (eventsNamed(socket, 'presence') as Array<{ pinId: number; viewers: number }>).filter((p) => p.pinId === pinId);
  return counts.at(-1)?.viewers;
}

/** Every socket's last count for the pin becomes `viewers` (or the bound passes: fails). */
async function expectViewers(watchers: TestSocket[], pinId: number, viewers: number, boundMs: number = CHANGE_MS, label = `${viewers} viewers`): Promise<void> {
  const since = performance.now();
  const took = await timeUntil(boundMs, () => watchers.every((s) => lastViewers(s, pinId) === viewers));
  console.log(`presence: ${label} after ${formatMs(took === undefined ? undefined : took, boundMs)} (since ${(performance.now() - since).toFixed(0)} ms ago)`);
  expect(watchers.map((s) => lastViewers(s, pinId))).toEqual(watchers.map(() => viewers));
}

test('two users and an anonymous visitor on one pin across two instances count 3; a second tab counts once; closing tabs lowers the count', async () => {
  const alice = await signUpUser(app.one.url, 'pa');
  const bob = await signUpUser(app.two.url, 'pb');
  const pin = await newPin(alice.client);

  const aliceTab1 = await app.socket(app.one, alice.client);
  expect(await send(aliceTab1, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  // The joining socket hears the count at once.
  await expectViewers([aliceTab1], pin.id, 1);

  const bobTab = await app.socket(app.two, bob.client);
  const anonymous = await app.socket(app.two);
  expect(await send(bobTab, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  expect(await send(anonymous, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  await expectViewers([aliceTab1, bobTab, anonymous], pin.id, 3, CHANGE_MS, 'two users and an anonymous visitor');

  // Alice opens the pin in a second tab, on the other instance: still 3.
  const aliceTab2 = await app.socket(app.two, alice.client);
  expect(await send(aliceTab2, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  await expectViewers([aliceTab2], pin.id, 3);

  // Alice closes her first tab: she is still there in the second.
  aliceTab1.disconnect();
  const anotherAnonymous = await app.socket(app.one);
  expect(await send(anotherAnonymous, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  // 4 (the new visitor) proves the leave was handled before; Alice still counts once.
  await expectViewers([bobTab, anonymous, aliceTab2, anotherAnonymous], pin.id, 4, CHANGE_MS, 'after one of two tabs closed, plus a visitor');

  // The anonymous visitor leaves by message, Bob closes his tab.
  expect(await send(anonymous, 'presence:leave', { pinId: pin.id })).toEqual({ ok: true });
  bobTab.disconnect();
  await expectViewers([aliceTab2, anotherAnonymous], pin.id, 2, CHANGE_MS, 'after a leave and a closed tab');
  // Alice's last tab goes: only the visitor is left.
  aliceTab2.disconnect();
  await expectViewers([anotherAnonymous], pin.id, 1, CHANGE_MS, 'after the last tab of a user closed');
});

test('a socket that only watches the pin (pins:watch) hears its count too; joining twice is harmless', async () => {
  const { client } = await signUpUser(app.one.url, 'pw');
  const pin = await newPin(client);
  const watcher = await app.socket(app.two);
  expect(await watch(watcher, { pinIds: [pin.id] })).toEqual({ ok: true });
  const viewer = await app.socket(app.one, client);
  expect(await send(viewer, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  expect(await send(viewer, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  await expectViewers([watcher, viewer], pin.id, 1);
  // A viewer that unwatches the pin still hears its count: presence is its own subscription.
  expect(await watch(viewer, { pinIds: [pin.id] })).toEqual({ ok: true });
  expect(await watch(viewer, { pinIds: [pin.id] }, 'pins:unwatch')).toEqual({ ok: true });
  const other = await app.socket(app.two);
  expect(await send(other, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
  await expectViewers([watcher, viewer, other], pin.id, 2);
});

test('bad presence payloads get error answers and the socket keeps working', async () => {
  const socket = await app.socket(app.one);
  for (const payload of [null, 'x', 5, {}, { pinId: 'a' }, { pinId: -1 }, { pinId: 1.5 }, { pinId: 2 ** 40 }, { boardId: 0 }, { pinId: 1, boardId: 1 }, { pinId: 1, extra: true }, [1]]) {
    expect(await send(socket, 'presence:join', payload), JSON.stringify(payload)).toEqual({ ok: false, error: PRESENCE_MESSAGES.invalid });
    expect(await send(socket, 'presence:leave', payload), JSON.stringify(payload)).toEqual({ ok: false, error: PRESENCE_MESSAGES.invalid });
  }
  // No ack function: nothing to answer, nothing breaks.
  (socket.emit as (event: string, payload: unknown) => void)('presence:join', { pinId: 'nope' });
  (socket.emit as (event: string, payload: unknown) => void)('presence:join', { pinId: 123_456 });
  // Leaving what one never joined is fine.
  expect(await send(socket, 'presence:leave', { pinId: 99_999 })).toEqual({ ok: true });
  expect(socket.connected).toBe(true);
});

test('a socket may be present on at most PRESENCE_LIMITS.targetsPerSocket pins and boards', async () => {
  // The message budget (30 per 10 s) is more than the cap needs.
  const socket = await app.socket(app.two);
  await send(socket, 'presence:join', { pinId: 123_456 }); // possibly joined by the previous test's ack-less message
  await send(socket, 'presence:leave', { pinId: 123_456 });
  for (let i = 1; i <= PRESENCE_LIMITS.targetsPerSocket; i++) expect(await send(socket, 'presence:join', { pinId: 1_000_000 + i })).toEqual({ ok: true });
  expect(await send(socket, 'presence:join', { pinId: 2_000_000 })).toEqual({ ok: false, error: PRESENCE_MESSAGES.tooMany });
  expect(await send(socket, 'presence:leave', { pinId: 1_000_001 })).toEqual({ ok: true });
  expect(await send(socket, 'presence:join', { pinId: 2_000_000 })).toEqual({ ok: true });
});

describe('board presence', () => {
  test('members see which members are here, across instances; non-members and anonymous sockets are refused', async () => {
    const owner = await signUpUser(app.one.url, 'bo');
    const collaborator = await signUpUser(app.two.url, 'bc');
    const stranger = await signUpUser(app.one.url, 'bs');
    const board = (await owner.client.post<Board>('/api/boards/', { name: 'Together' })).body;
    // Membership rows as the shared-boards service writes them (its API is another change's).
    await app.one.server.database.db.insertInto('board_members').values({ board_id: board.id, user_id: collaborator.user.id }).execute();

    const ownerTab = await app.socket(app.one, owner.client);
    expect(await send(ownerTab, 'presence:join', { boardId: board.id })).toEqual({ ok: true });
    const collaboratorTab = await app.socket(app.two, collaborator.client);
    expect(await send(collaboratorTab, 'presence:join', { boardId: board.id })).toEqual({ ok: true });
    const both = [owner.user, collaborator.user].map(({ id, username }) => ({ id, username })).sort((a, b) => a.username.localeCompare(b.username));
    const lastUsers = (socket: TestSocket) => (eventsNamed(socket, 'board:presence') as Array<{ boardId: number; users: PresentUser[] }>).filter((p) => p.boardId === board.id).at(-1)?.users;
    const sorted = (users: PresentUser[] | undefined) => [...(users ?? [])].sort((a, b) => a.username.localeCompare(b.username));
    expect(await timeUntil(CHANGE_MS, () => [ownerTab, collaboratorTab].every((s) => JSON.stringify(sorted(lastUsers(s))) === JSON.stringify(both)))).toBeDefined();

    const strangerTab = await app.socket(app.two, stranger.client);
    expect(await send(strangerTab, 'presence:join', { boardId: board.id })).toEqual({ ok: false, error: PRESENCE_MESSAGES.boardNotFound });
    const anonymous = await app.socket(app.one);
    expect(await send(anonymous, 'presence:join', { boardId: board.id })).toEqual({ ok: false, error: PRESENCE_MESSAGES.boardNotFound });
    expect(await send(anonymous, 'presence:join', { boardId: 2_000_000_000 })).toEqual({ ok: false, error: PRESENCE_MESSAGES.boardNotFound });
    expect(eventsNamed(strangerTab, 'board:presence')).toEqual([]);
    expect(eventsNamed(anonymous, 'board:presence')).toEqual([]);

    collaboratorTab.disconnect();
    const ownerOnly = [{ id: owner.user.id, username: owner.user.username }];
    expect(await timeUntil(CHANGE_MS, () => JSON.stringify(lastUsers(ownerTab)) === JSON.stringify(ownerOnly))).toBeDefined();
  });
});

describe('an instance killed with SIGKILL', () => {
  let three: AppProcess | undefined;
  afterAll(async () => {
    await three?.stop();
  });

  test('its viewers are gone from the count within the TTL and a heartbeat', async () => {
    three = await startAppProcess({
      ...env,
      DATABASE_URL: app.one.databaseUrl as string,
      REDIS_URL,
      SOCKET_CHANNEL: app.one.config.socketChannel,
      AUTO_MIGRATE: 'false',
      AUTO_SEED: 'false',
    });
    const { client } = await signUpUser(app.one.url, 'pk');
    const pin = await newPin(client);
    const survivor = await app.socket(app.one, client);
    expect(await send(survivor, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
    const doomedUser = await app.socket(three, (await signUpUser(app.one.url, 'pd')).client);
    const doomedAnonymous = await app.socket(three);
    expect(await send(doomedUser, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
    expect(await send(doomedAnonymous, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
    await expectViewers([survivor, doomedUser, doomedAnonymous], pin.id, 3);

    three.child.kill('SIGKILL');
    await three.exited;
    await expectViewers([survivor], pin.id, 1, CRASH_MS, 'after the kill');
  });
});

describe('embedded mode (no Redis)', () => {
  const embedded = useTestServer({ db: 'pglite', env });

  test('counts users once and anonymous sockets each, in process', async () => {
    const { client } = await signUpUser(embedded.url, 'pe');
    const pin = await newPin(client);
    const tab1 = await embedded.socket(client);
    const tab2 = await embedded.socket(client);
    const anonymous = await embedded.socket();
    for (const socket of [tab1, tab2, anonymous]) expect(await send(socket, 'presence:join', { pinId: pin.id })).toEqual({ ok: true });
    await expectViewers([tab1, tab2, anonymous], pin.id, 2);
    tab1.disconnect();
    anonymous.disconnect();
    await expectViewers([tab2], pin.id, 1);
  });
});
