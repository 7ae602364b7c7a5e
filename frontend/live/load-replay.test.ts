import { describe, expect, it, vi } from 'vitest';
import { alice, makePin } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';
import { pinsByIdAtom } from '../state/atoms.ts';
import { removePin, upsertPins } from '../state/pins.ts';

describe('live client: screen loads', () => {
  it('a screen load replays the events that arrived during its fetch, so an older answer does not undo them', async () => {
    const { store, client, checkSession, last, sockets } = setupLive(alice);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().serverConnect();
    upsertPins(store, [makePin(1), makePin(2)]);

    let answer: (pins: ReturnType<typeof makePin>[]) => void = () => {};
    const load = client.replayDuring(async () => {
      upsertPins(store, await new Promise<ReturnType<typeof makePin>[]>((resolve) => (answer = resolve)));
    });
    const renamed = makePin(1, alice, { title: 'Renamed', updated_at: new Date(Date.UTC(2026, 0, 1)).toISOString() });
    last().serverEmit('pin:created', { pin: makePin(3) });
    last().serverEmit('pin:deleted', { pinId: 2 });
    last().serverEmit('pin:updated', { pin: renamed });
    // The server's answer was taken before those changes.
    answer([makePin(1), makePin(2)]);
    await load;
    const pins = store.get(pinsByIdAtom);
    expect(Object.keys(pins).map(Number).sort()).toEqual([1, 3]);
    expect(pins[1]?.title).toBe('Renamed');

    // Once the load is over nothing is buffered for it any more: pin 3's creation is not replayed.
    removePin(store, 3);
    await client.replayDuring(async () => undefined);
    expect(store.get(pinsByIdAtom)[3]).toBeUndefined();
  });
});
