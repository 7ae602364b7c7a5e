import { describe, expect, it, vi } from 'vitest';
import type { ChangeEntry } from '../../contract/changes.ts';
import { alice, bob, makePin, mockApi, type Call } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';
import { commentsByIdAtom, pinsByIdAtom } from '../state/atoms.ts';
import { upsertPins } from '../state/pins.ts';
import { createChangeTracker } from './changes.ts';

const comment = (id: number, pinId: number, text = `comment ${id}`) => ({
  id,
  text,
  pin_id: pinId,
  user_id: bob.id,
  username: bob.username,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

/** A server log: GET /api/changes answers from it like the server (pages of `page`, lastSeq rule). */
function fakeLog() {
  const log: ChangeEntry[] = [];
  let prunedThrough = 0;
  const head = () => log.at(-1)?.seq ?? prunedThrough;
  return {
    log,
    head,
    add(entry: Omit<ChangeEntry, 'seq'>): ChangeEntry {
      const full = { ...entry, seq: head() + 1 } as ChangeEntry;
      log.push(full);
      return full;
    },
    prune(through: number) {
      prunedThrough = through;
      log.splice(
        0,
        log.findIndex((c) => c.seq > through),
      );
    },
    reply(call: Call) {
      const since = Number(call.query.get('since'));
      if (since < prunedThrough || since > head()) return { body: { reset: true, lastSeq: head() } };
      const changes = log.filter((c) => c.seq > since).slice(0, 1_000);
      return { body: { changes, lastSeq: head() } };
    },
  };
}

describe('live client: the change log', () => {
  it('a reconnect pulls what was missed from the cursor instead of refetching, and applies each change once', async () => {
    const server = fakeLog();
    const api = mockApi({ 'GET /api/changes': (call) => server.reply(call) });
    const { store, client, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    upsertPins(store, [makePin(1)]);
    client.watchPins([1]);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    server.add({ event: 'pin:created', data: { pin: makePin(2) } }); // before the page's start
    socket.serverEmit('changes:head', { seq: server.head() });
    expect(client.changes.state()).toMatchObject({ cursor: 1, floor: 1 });

    // Live: seq 2 arrives by socket.
    const c10 = server.add({ event: 'comment:created', data: { comment: comment(10, 1) } });
    socket.serverEmit('comment:created', { comment: comment(10, 1), seq: c10.seq });
    // Away: 3 and 4 are missed.
    socket.serverDisconnect('transport close');
    server.add({ event: 'comment:created', data: { comment: comment(11, 1) } });
    server.add({ event: 'pin:likes', data: { pinId: 1, likesCount: 5, version: 3 } });
    socket.serverConnect();
    await vi.waitFor(() => expect(store.get(pinsByIdAtom)[1]?.likes_count).toBe(5));
    await client.settled();
    expect(Object.keys(store.get(commentsByIdAtom)).sort()).toEqual(['10', '11']);
    expect(api.sent('GET', '/api/changes').map((c) => c.query.get('since'))).toEqual(['1']);
    // No full refetch of the screens.
    expect(api.sent('GET', '/api/pins/1')).toHaveLength(0);
    expect(client.changes.state()).toMatchObject({ cursor: 4, pending: 0 });

    // A late copy of a pulled change (another instance's) is not applied again: a comment edited
    // since must not be undone by it.
    store.set(commentsByIdAtom, (prev) => ({ ...prev, 11: { ...comment(11, 1), text: 'edited' } }));
    socket.serverEmit('comment:created', { comment: comment(11, 1), seq: 3 });
    expect(store.get(commentsByIdAtom)[11]?.text).toBe('edited');
  });

  it('a head past the cursor pulls the changes the socket never brought', async () => {
    const server = fakeLog();
    const api = mockApi({ 'GET /api/changes': (call) => server.reply(call) });
    const applied: number[] = [];
    const tracker = createChangeTracker({
      apply: (_name, payload) => applied.push((payload as { seq: number }).seq),
      fetchChanges: async (since) => (await (await fetch(`/api/changes?since=${since}`)).json()) as never,
      refetchScreens: async () => undefined,
    });
    tracker.connected(false, () => true, Promise.resolve());
    tracker.event('changes:head', { seq: 0 });
    for (let i = 0; i < 3; i++) server.add({ event: 'pin:deleted', data: { pinId: 100 + i } });
    // One of them came by socket, the others were lost (an instance died before publishing).
    tracker.event('pin:deleted', { pinId: 101, seq: 2 });
    tracker.event('changes:head', { seq: 3 });
    await vi.waitFor(() => expect(tracker.state().cursor).toBe(3));
    await tracker.settled();
    expect(applied).toEqual([2, 1, 3]);
    expect(api.sent('GET', '/api/changes')).toHaveLength(1);
    // A head at or behind the cursor asks nothing.
    tracker.event('changes:head', { seq: 3 });
    expect(api.sent('GET', '/api/changes')).toHaveLength(1);
  });

  it('pages until an answer is not full, applying each change once', async () => {
    const server = fakeLog();
    mockApi({ 'GET /api/changes': (call) => server.reply(call) });
    const applied: number[] = [];
    const tracker = createChangeTracker({
      apply: (_name, payload) => applied.push((payload as { seq: number }).seq),
      fetchChanges: async (since) => (await (await fetch(`/api/changes?since=${since}`)).json()) as never,
      refetchScreens: async () => undefined,
    });
    tracker.connected(false, () => true, Promise.resolve());
    tracker.event('changes:head', { seq: 0 });
    for (let i = 0; i < 2_500; i++) server.add({ event: 'pin:deleted', data: { pinId: i + 1 } });
    tracker.event('pin:deleted', { pinId: 1_500, seq: 1_500 });
    tracker.connected(true, () => true, Promise.resolve());
    await vi.waitFor(() => expect(tracker.state().cursor).toBe(2_500));
    await tracker.settled();
    expect(applied).toHaveLength(2_500);
    expect(new Set(applied).size).toBe(2_500);
  });

  it('a reset answer falls back to refetching the screens, and goes on from the log head', async () => {
    const server = fakeLog();
    mockApi({ 'GET /api/changes': (call) => server.reply(call) });
    const refetches: number[] = [];
    const tracker = createChangeTracker({
      apply: () => undefined,
      fetchChanges: async (since) => (await (await fetch(`/api/changes?since=${since}`)).json()) as never,
      refetchScreens: async () => void refetches.push(1),
    });
    tracker.connected(false, () => true, Promise.resolve());
    tracker.event('changes:head', { seq: 0 });
    for (let i = 0; i < 5; i++) server.add({ event: 'pin:deleted', data: { pinId: i + 1 } });
    server.prune(3);
    tracker.connected(true, () => true, Promise.resolve());
    await vi.waitFor(() => expect(refetches).toHaveLength(1));
    expect(tracker.state().cursor).toBe(5);
  });

  it('a new user starts over: the previous cursor and seqs are forgotten', () => {
    const applied: number[] = [];
    const tracker = createChangeTracker({
      apply: (_name, payload) => applied.push((payload as { seq: number }).seq),
      fetchChanges: () => Promise.reject(new Error('not called')),
      refetchScreens: async () => undefined,
    });
    tracker.connected(false, () => true, Promise.resolve());
    tracker.event('changes:head', { seq: 10 });
    tracker.event('pin:deleted', { pinId: 1, seq: 11 });
    tracker.event('pin:deleted', { pinId: 1, seq: 11 });
    tracker.connected(false, () => true, Promise.resolve());
    expect(tracker.state().cursor).toBeUndefined();
    tracker.event('pin:deleted', { pinId: 1, seq: 11 });
    tracker.event('session:ended', {});
    expect(applied).toEqual([11, 11, undefined]);
  });
});
