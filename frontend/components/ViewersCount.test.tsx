import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '../../contract/index.ts';
import { pinViewersAtom } from '../live/presence-state.ts';
import { setupLive } from '../test-support/fakeSocket.ts';
import { BoardPresence } from './BoardPresence.tsx';
import { ViewersCount } from './ViewersCount.tsx';

afterEach(cleanup);

const me: User = { id: 7, username: 'me', email: 'me@example.test' };

describe('ViewersCount', () => {
  it('joins the pin on mount, shows the live count ("N people", nothing for the reader alone), leaves on unmount and re-joins after a reconnect', async () => {
    const { store, checkSession, last } = setupLive();
    checkSession();
    await waitFor(() => expect(() => last()).not.toThrow());
    act(() => last().serverConnect());
    const view = render(
      <Provider store={store}>
        <ViewersCount pinId={5} />
      </Provider>,
    );
    await waitFor(() => expect(last().presence).toEqual([{ event: 'presence:join', target: { pinId: 5 } }]));
    // Nothing until the server has said how many.
    expect(screen.queryByText(/viewing/)).toBeNull();
    // One viewer is this reader alone: nothing to say.
    act(() => last().serverEmit('presence', { pinId: 5, viewers: 1 }));
    expect(screen.queryByText(/viewing/)).toBeNull();
    act(() => last().serverEmit('presence', { pinId: 5, viewers: 3 }));
    expect(await screen.findByText('· 3 people viewing')).toBeTruthy();
    // Another pin's count is not this one's.
    act(() => last().serverEmit('presence', { pinId: 6, viewers: 9 }));
    expect(screen.getByText('· 3 people viewing')).toBeTruthy();

    // A new connection: the server forgot, so the pin is joined again.
    act(() => last().serverDisconnect('transport close'));
    act(() => last().serverConnect());
    await waitFor(() => expect(last().presence.filter((m) => m.event === 'presence:join')).toHaveLength(2));

    view.unmount();
    await waitFor(() => expect(last().presence.at(-1)).toEqual({ event: 'presence:leave', target: { pinId: 5 } }));
    // A later visit does not show the old figure before the server answers.
    expect(store.get(pinViewersAtom).has(5)).toBe(false);
  });

  it('two mounted counts for one pin join once and leave once the last unmounts', async () => {
    const { store, checkSession, last } = setupLive();
    checkSession();
    await waitFor(() => expect(() => last()).not.toThrow());
    act(() => last().serverConnect());
    const a = render(
      <Provider store={store}>
        <ViewersCount pinId={5} />
      </Provider>,
    );
    const b = render(
      <Provider store={store}>
        <ViewersCount pinId={5} />
      </Provider>,
    );
    await waitFor(() => expect(last().presence).toHaveLength(1));
    a.unmount();
    expect(last().presence).toHaveLength(1);
    b.unmount();
    await waitFor(() => expect(last().presence.at(-1)?.event).toBe('presence:leave'));
  });
});

describe('BoardPresence', () => {
  it('lists the other members here now, not the signed-in user', async () => {
    const { store, checkSession, last } = setupLive(me);
    checkSession();
    await waitFor(() => expect(() => last()).not.toThrow());
    act(() => last().serverConnect());
    render(
      <Provider store={store}>
        <BoardPresence boardId={3} />
      </Provider>,
    );
    await waitFor(() => expect(last().presence).toEqual([{ event: 'presence:join', target: { boardId: 3 } }]));
    act(() => last().serverEmit('board:presence', { boardId: 3, users: [{ id: 7, username: 'me' }] }));
    expect(screen.queryByRole('status')).toBeNull();
    act(() =>
      last().serverEmit('board:presence', {
        boardId: 3,
        users: [
          { id: 7, username: 'me' },
          { id: 8, username: 'ann' },
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Also here now' });
    expect(list.textContent).toContain('ann');
    expect(list.textContent).not.toContain('me');
  });
});
