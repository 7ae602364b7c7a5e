import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchAck } from '../../contract/events.ts';
import { LIMITS } from '../../contract/limits.ts';
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
    registry.add(Array.from({ length: 1000 }, (_, i) => i + 1));
    await registry.connected(send);
    expect(sent.map((m) => m.ids.length)).toEqual([500, 500]);
    expect(new Set(sent.flatMap((m) => m.ids)).size).toBe(1000);
    registry.remove(Array.from({ length: 600 }, (_, i) => i + 1));
    await flush();
    expect(sent.slice(2).map((m) => [m.kind, m.ids.length])).toEqual([
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

  describe('the server holds at most LIMITS.watchedPinsPerSocket pins per socket', () => {
    /** Long enough for a flush, the answers to its unwatches, and the flush that follows them. */
    const settle = () => vi.advanceTimersByTimeAsync(1000);

    /**
     * A server end that holds what it is told to and refuses a watch beyond `cap`. It leaves the
     * rooms of an unwatch only when it answers, 500 ms later, so a watch sent before that answer
     * must still fit next to them.
     */
    function cappedServer(cap: number) {
      const held = new Set<number>();
      let most = 0;
      let refused = 0;
      const send = async (kind: WatchKind, ids: number[]): Promise<WatchAck> => {
        if (kind === 'pins:unwatch') {
          await new Promise((resolve) => setTimeout(resolve, 500));
          ids.forEach((id) => held.delete(id));
          return { ok: true };
        }
        if (new Set([...held, ...ids]).size > cap) {
          refused += 1;
          return { ok: false, error: `At most ${cap} pins can be watched by one connection.` };
        }
        ids.forEach((id) => held.add(id));
        most = Math.max(most, held.size);
        return { ok: true };
      };
      return { send, held: () => [...held].sort((a, b) => a - b), most: () => most, refused: () => refused };
    }

    it('watches the most recently requested pins up to the cap and logs the rest', async () => {
      const log = vi.fn();
      const registry = new WatchRegistry({ now: () => Date.now(), log, maxWatched: 3 });
      const server = cappedServer(3);
      registry.add([1, 2, 3]);
      await registry.connected(server.send);
      registry.add([4]); // a fourth pin: the least recently requested one (1) makes room
      await settle();
      expect(server.held()).toEqual([2, 3, 4]);
      expect(log).toHaveBeenCalledWith('4 pins to watch, more than the 3 a socket may: watching the most recent ones');
      registry.add([2]); // asked for again (another screen shows it): now 3 is the oldest
      registry.add([5]);
      await settle();
      expect(server.held()).toEqual([2, 4, 5]);
      registry.remove([4, 5]); // back under the cap: the older pins are watched again
      await settle();
      expect(server.held()).toEqual([1, 2, 3]);
      expect(registry.held()).toEqual([1, 2, 3]);
      expect(server.most()).toBe(3);
      expect(server.refused()).toBe(0);
    });

    it('never asks for more than the cap, even before unwatches are answered', async () => {
      const registry = new WatchRegistry({ now: () => Date.now(), log: () => undefined });
      const server = cappedServer(LIMITS.watchedPinsPerSocket);
      // The screens want 1200 pins: the last 1000 requested are watched.
      registry.add(Array.from({ length: 1200 }, (_, i) => i + 1));
      await registry.connected(server.send);
      expect(server.held()).toEqual(Array.from({ length: 1000 }, (_, i) => i + 201));
      // A new screen with 1000 other pins: the new ones go out once the old ones are unwatched,
      // even when another change is flushed while those unwatches are still unanswered.
      registry.remove(Array.from({ length: 1200 }, (_, i) => i + 1));
      registry.add(Array.from({ length: 1000 }, (_, i) => i + 5001));
      await flush();
      registry.add([7000]);
      await settle();
      expect(server.held()).toEqual([...Array.from({ length: 999 }, (_, i) => i + 5002), 7000]);
      expect(server.most()).toBe(1000);
      expect(server.refused()).toBe(0);
    });

    it('backs off on an error ack, as for any other', async () => {
      const log = vi.fn();
      const registry = new WatchRegistry({ now: () => Date.now(), log, retryMs: 1000 });
      const { sent, send } = fakeSend(() => ({ ok: false, error: 'At most 1000 pins can be watched by one connection.' }));
      registry.add([7]);
      await registry.connected(send);
      expect(log).toHaveBeenCalledWith('pins:watch (1 pins) failed: At most 1000 pins can be watched by one connection.');
      await vi.advanceTimersByTimeAsync(999);
      expect(sent).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toHaveLength(2); // after 1 s
      await vi.advanceTimersByTimeAsync(1999);
      expect(sent).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toHaveLength(3); // then after 2 s more
      expect(registry.held()).toEqual([]);
    });
  });
});
