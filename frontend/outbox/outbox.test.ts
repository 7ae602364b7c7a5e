import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboxEntriesAtom, waitingEntriesAtom } from './atoms.ts';
import type { OutboxEntry, OutboxSubject, Refusal } from './entry.ts';
import { cancelWrite, flushOutbox, OUTBOX_CAP, type OutboxHandlers, queueWrite, setOutboxUser, startOutbox } from './outbox.ts';
import { memoryStorage } from './storage.ts';

// The outbox's promises (docs/outbox.md): in order, each exactly once with one key, kept while no
// answer comes, dropped with its kind told when refused, a waiting favorite taken back, a cap.

interface Sent {
  method: string;
  path: string;
  key: string | undefined;
}

/** A fake server: `answer` decides each reply (status 0 = no connection). */
function fakeServer(answer: (call: Sent) => { status: number; body?: unknown }) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const call = { method: init?.method ?? 'GET', path: String(input), key: headers['Idempotency-Key'] };
      sent.push(call);
      const reply = answer(call);
      if (reply.status === 0) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body ?? {}), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return sent;
}

function recorder() {
  const seen: string[] = [];
  const refusals: Refusal[] = [];
  const kind = {
    show: (_store: unknown, entry: OutboxEntry) => seen.push(`show ${entry.path}`),
    sent: (_store: unknown, entry: OutboxEntry) => seen.push(`sent ${entry.path}`),
    refused: (_store: unknown, entry: OutboxEntry, refusal: Refusal) => {
      seen.push(`refused ${entry.path}`);
      refusals.push(refusal);
    },
  };
  const handlers = Object.fromEntries(['favorite', 'unfavorite', 'board-save', 'board-remove', 'comment', 'pin-delete', 'board-delete'].map((k) => [k, kind])) as unknown as OutboxHandlers;
  return { seen, refusals, handlers };
}

const favorite = (pinId: number): OutboxSubject => ({ kind: 'favorite', pinId });
const stops: Array<() => void> = [];

afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function started(storage = memoryStorage()) {
  const store = createStore();
  const { seen, refusals, handlers } = recorder();
  stops.push(startOutbox(store, handlers, { storage }));
  await setOutboxUser(store, 1);
  return { store, seen, refusals, storage };
}

describe('the outbox', () => {
  it('sends at once when the server answers, and keeps nothing', async () => {
    const sent = fakeServer(() => ({ status: 201, body: { id: 9, pin_id: 5 } }));
    const { store, seen } = await started();
    expect(await queueWrite(store, { userId: 1, label: 'Lake', subject: favorite(5) })).toEqual({ status: 'sent', answer: { id: 9, pin_id: 5 } });
    expect(sent).toEqual([{ method: 'POST', path: '/api/favorites/', key: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
    expect(seen).toEqual(['sent /api/favorites/']);
    expect(store.get(outboxEntriesAtom)).toEqual([]);
  });

  it('keeps writes that get no answer, in order, then sends each once with the same key', async () => {
    let online = false;
    const sent = fakeServer(() => (online ? { status: 200, body: {} } : { status: 0 }));
    const { store, seen } = await started();
    expect(await queueWrite(store, { userId: 1, label: 'A', subject: favorite(1) })).toEqual({ status: 'waiting' });
    // Behind a waiting write, the next one is not tried: it waits its turn.
    expect(await queueWrite(store, { userId: 1, label: 'B', subject: { kind: 'pin-delete', pinId: 2 } })).toEqual({ status: 'waiting' });
    expect(store.get(waitingEntriesAtom).map((entry) => entry.label)).toEqual(['A', 'B']);
    const firstKey = sent[0]?.key;
    await flushOutbox(store); // still offline
    online = true;
    await flushOutbox(store);
    const attempts = sent.map((call) => `${call.method} ${call.path}`);
    expect(attempts.filter((a) => a === 'POST /api/favorites/').length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent.filter((call) => call.path === '/api/favorites/').map((call) => call.key))).toEqual(new Set([firstKey]));
    expect(attempts.at(-2)).toBe('POST /api/favorites/');
    expect(attempts.at(-1)).toBe('DELETE /api/pins/2');
    expect(seen).toEqual(['sent /api/favorites/', 'sent /api/pins/2']);
    expect(store.get(outboxEntriesAtom)).toEqual([]);
  });

  it('502, 503 and 504 are no answer; 4xx and 500 are a refusal, told to the kind and dropped', async () => {
    const replies = [502, 503, 504, 404];
    const sent = fakeServer(() => ({ status: replies.shift() ?? 500, body: { message: 'Pin not found.' } }));
    const { store, seen, refusals } = await started();
    expect(await queueWrite(store, { userId: 1, label: 'A', subject: favorite(1) })).toEqual({ status: 'waiting' });
    await flushOutbox(store);
    await flushOutbox(store);
    await flushOutbox(store);
    expect(seen).toEqual(['refused /api/favorites/']);
    expect(refusals[0]).toMatchObject({ reason: 'refused', error: { status: 404 } });
    expect(sent).toHaveLength(4);
    expect(await queueWrite(store, { userId: 1, label: 'B', subject: favorite(2) })).toMatchObject({ status: 'refused', reason: 'refused', error: { status: 500 } });
    expect(store.get(outboxEntriesAtom)).toEqual([]);
  });

  it('a write still waiting can be taken back: it is never sent', async () => {
    const sent = fakeServer(() => ({ status: 0 }));
    const { store } = await started();
    await queueWrite(store, { userId: 1, label: 'A', subject: favorite(1) });
    const key = store.get(outboxEntriesAtom)[0]?.key ?? '';
    expect(await cancelWrite(store, key)).toBe(true);
    expect(await cancelWrite(store, key)).toBe(false);
    await flushOutbox(store);
    expect(sent).toHaveLength(1);
    expect(store.get(outboxEntriesAtom)).toEqual([]);
  });

  it("a new start shows what waited and sends it; another user's entries wait for them", async () => {
    fakeServer(() => ({ status: 0 }));
    const storage = memoryStorage();
    const before = await started(storage);
    await queueWrite(before.store, { userId: 1, label: 'Mine', subject: { kind: 'pin-delete', pinId: 4 } });
    await queueWrite(before.store, { userId: 2, label: 'Theirs', subject: favorite(3) });
    stops.splice(0).forEach((stop) => stop());
    const sent = fakeServer(() => ({ status: 200, body: {} }));
    const after = await started(storage);
    expect(after.seen).toEqual(['show /api/pins/4', 'sent /api/pins/4']);
    expect(sent.map((call) => call.path)).toEqual(['/api/pins/4']);
    expect((await storage.read()).map((entry) => entry.label)).toEqual(['Theirs']);
  });

  it('entries older than the server remembers keys are dropped, not sent, and told as expired', async () => {
    const sent = fakeServer(() => ({ status: 200, body: {} }));
    const storage = memoryStorage();
    await storage.update(() => [{ key: 'old', createdAt: Date.now() - 25 * 3600_000, userId: 1, label: 'Old', subject: favorite(1), method: 'POST', path: '/api/favorites/', body: { pin_id: 1 } }]);
    const { seen, refusals } = await started(storage);
    expect(sent).toEqual([]);
    expect(seen).toEqual(['show /api/favorites/', 'refused /api/favorites/']);
    expect(refusals).toEqual([{ status: 'refused', reason: 'expired' }]);
  });

  it(`holds at most ${OUTBOX_CAP} entries: one more is refused as full`, async () => {
    fakeServer(() => ({ status: 0 }));
    const storage = memoryStorage();
    const many = Array.from({ length: OUTBOX_CAP }, (_, i) => ({ key: `k${i}`, createdAt: Date.now(), userId: 9, label: 'x', subject: favorite(i), method: 'POST' as const, path: '/api/favorites/' }));
    await storage.update(() => many);
    const { store, refusals } = await started(storage);
    expect(await queueWrite(store, { userId: 1, label: 'One more', subject: favorite(1) })).toEqual({ status: 'refused', reason: 'full' });
    expect(refusals).toEqual([{ status: 'refused', reason: 'full' }]);
  });
});
