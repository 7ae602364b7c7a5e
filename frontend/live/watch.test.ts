import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchAck } from '../../contract/events.ts';
import { WatchRegistry, type WatchKind } from './watch.ts';

type Sent = { kind: WatchKind; ids: number[]; at: number };

/** A fake server end: records messages, answers with `answer` (ok by default). */
function fakeSend(answer: (sent: Sent) => WatchAck = () => ({ ok: true })) {
  const sent: Sent[] = [];
  const send = vi.fn(async (kind: WatchKind, ids: number[]) => {
    const message = { kind, ids: [...ids], at: Date.now() };
    sent.push(message);
    return answer(message);
  });
  return { sent, send };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const flush = () => vi.advanceTimersByTimeAsync(100);
const msgs = (sent: Sent[]) => sent.map(({ kind, ids }) => ({ kind, ids }));

describe('watch registry', () => {
  it('sends what is wanted once connected; nothing while disconnected', async () => {
    const registry = new WatchRegistry({ now: () => Date.now() });
    registry.add([3, 1]);
    await flush();
    const { sent, send } = fakeSend();
    await registry.connected(send);
    expect(msgs(sent)).toEqual([{ kind: 'pins:watch', ids: [1, 3] }]);
    expect(registry.held()).toEqual([1, 3]);
  });

  it('counts references: a pin is unwatched only when the last screen lets go', async () => {
    const registry = new WatchRegistry({ now: () => Date.now() });
    const { sent, send } = fakeSend();
    await registry.connected(send);
    registry.add([1, 2]); // the grid
    registry.add([2]); // the detail page of pin 2
    await flush();
    expect(msgs(sent)).toEqual([{ kind: 'pins:watch', ids: [1, 2] }]);
    registry.remove([2]);
    await flush();
    expect(sent).toHaveLength(1);
    expect(registry.watched()).toEqual([1, 2]);
    registry.remove([1, 2]);
    await flush();
    expect(msgs(sent)[1]).toEqual({ kind: 'pins:unwatch', ids: [1, 2] });
    expect(registry.watched()).toEqual([]);
    registry.remove([1]); // more releases than holds: ignored
    registry.add([1]);
    await flush();
    expect(msgs(sent)[2]).toEqual({ kind: 'pins:watch', ids: [1] });
    registry.remove([1]);
    await flush();
    expect(msgs(sent)[3]).toEqual({ kind: 'pins:unwatch', ids: [1] });
  });

  it('coalesces changes within the window: a pin watched and released at once sends nothing', async () => {
    const registry = new WatchRegistry({ now: () => Date.now() });
    const { sent, send } = fakeSend();
    await registry.connected(send);
    registry.add([1]);
    registry.add([2]);
    registry.add([3]);
    registry.remove([3]);
    await vi.advanceTimersByTimeAsync(50);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(msgs(sent)).toEqual([{ kind: 'pins:watch', ids: [1, 2] }]);
  });

  it('sends at most 500 ids per message', async () => {
    const registry = new WatchRegistry({ now: () => Date.now() });
    const { sent, send } = fakeSend();
    registry.add(Array.from({ length: 1200 }, (_, i) => i + 1));
    await registry.connected(send);
    expect(sent.map((m) => m.ids.length)).toEqual([500, 500, 200]);
    expect(new Set(sent.flatMap((m) => m.ids)).size).toBe(1200);
    registry.remove(Array.from({ length: 600 }, (_, i) => i + 1));
    await flush();
    expect(sent.slice(3).map((m) => [m.kind, m.ids.length])).toEqual([
      ['pins:unwatch', 500],
      ['pins:unwatch', 100],
    ]);
  });

  it('stays under the server limit (30 messages per 10 s): the rest waits, coalesced', async () => {
    const registry = new WatchRegistry({ now: () => Date.now() });
    const { sent, send } = fakeSend();
    await registry.connected(send);
    for (let i = 1; i <= 40; i++) {
      registry.add([i]);
      await flush();
    }
    expect(sent).toHaveLength(25);
    // The held-back changes go out together once the window allows one more message.
    await vi.advanceTimersByTimeAsync(10_500);
    expect(sent).toHaveLength(26);
    expect(sent[25]?.ids).toEqual(Array.from({ length: 15 }, (_, i) => i + 26));
    // No 10-second window (the server's) holds more than 30 messages.
    for (const m of sent) expect(sent.filter((o) => o.at >= m.at && o.at - m.at <= 10_000).length).toBeLessThanOrEqual(30);
    expect(send).toHaveBeenCalledTimes(26);
  });

  it('logs an error ack and tries again later; answers for an old connection are ignored', async () => {
    const log = vi.fn();
    const registry = new WatchRegistry({ now: () => Date.now(), log, retryMs: 1000 });
    let fail = true;
    const { sent, send } = fakeSend(() => (fail ? { ok: false, error: 'Too many messages. Slow down.' } : { ok: true }));
    registry.add([7]);
    await registry.connected(send);
    expect(log).toHaveBeenCalledWith('pins:watch (1 pins) failed: Too many messages. Slow down.');
    expect(registry.held()).toEqual([]);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(2);
    expect(registry.held()).toEqual([7]);

    // A send that rejects (no answer) counts as an error too.
    const broken = vi.fn(async () => Promise.reject(new Error('No answer from the server.')));
    await registry.connected(broken);
    expect(log).toHaveBeenLastCalledWith('pins:watch (1 pins) failed: No answer from the server.');

    // A slow answer from a connection that has since gone changes nothing.
    let answer: (ack: WatchAck) => void = () => undefined;
    const slow = vi.fn(() => new Promise<WatchAck>((resolve) => (answer = resolve)));
    void registry.connected(slow);
    registry.disconnected();
    answer({ ok: false, error: 'late' });
    await vi.advanceTimersByTimeAsync(0);
    expect(log).not.toHaveBeenCalledWith('pins:watch (1 pins) failed: late');
  });

  it('watches everything again on a new connection', async () => {
    const registry = new WatchRegistry({ now: () => Date.now() });
    const first = fakeSend();
    registry.add([1, 2]);
    await registry.connected(first.send);
    registry.disconnected();
    expect(registry.held()).toEqual([]);
    registry.add([3]);
    registry.remove([1]);
    await flush();
    const second = fakeSend();
    await registry.connected(second.send);
    expect(msgs(second.sent)).toEqual([{ kind: 'pins:watch', ids: [2, 3] }]);
  });
});
