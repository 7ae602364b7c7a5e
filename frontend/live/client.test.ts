import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test-support/render.tsx';
import { setupLive } from '../test-support/fakeSocket.ts';

describe('live client: watching', () => {
  it('watches what screens ask for, shared between screens, and sends pins:watch / pins:unwatch', async () => {
    const { client, checkSession, last, sockets } = setupLive();
    const releaseGrid = client.watchPins([1, 2, 3]);
    const releaseDetail = client.watchPins([2]); // a pin page
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    expect(socket.emitted).toEqual([{ kind: 'pins:watch', pinIds: [1, 2, 3] }]);
    releaseGrid();
    releaseGrid(); // twice: no effect
    await vi.waitFor(() => expect(socket.emitted).toHaveLength(2));
    expect(socket.emitted[1]).toEqual({ kind: 'pins:unwatch', pinIds: [1, 3] });
    releaseDetail();
    await vi.waitFor(() => expect(socket.watchedIds()).toEqual([]));
  });

  it('logs an error ack', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client, checkSession, last, sockets } = setupLive();
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().answer = () => ({ ok: false, error: 'At most 500 pins can be watched at once.' });
    last().serverConnect();
    client.watchPins([5]);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('pins:watch (1 pins) failed: At most 500 pins can be watched at once.'));
  });

  it('watches everything again after a reconnect', async () => {
    mockApi({});
    const { client, checkSession, last, sockets } = setupLive();
    client.watchPins([8, 9]);
    checkSession();
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    const socket = last();
    socket.serverConnect();
    socket.serverDisconnect('transport close');
    socket.serverConnect(); // socket.io reconnected the same socket
    expect(socket.emitted).toEqual([
      { kind: 'pins:watch', pinIds: [8, 9] },
      { kind: 'pins:watch', pinIds: [8, 9] },
    ]);
  });
});
