// The live client driving real screens: the route table in a memory router, a fake `fetch` for
// the REST calls, and a fake socket playing the server.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PIN_DELETED_TEXT } from '../components/PinDeletedNotice.tsx';
import { alice, bob, gridCardIds, makeBoard, makeComment, makePin, renderApp } from '../test-support/render.tsx';
import { renderLive } from '../test-support/renderLive.tsx';
import { dropDeletedPin } from './apply.ts';

describe('live screens', () => {
  it('home grid: new pins wait behind the "N new pins" pill and go first on a click; a deleted pin vanishes; cards are watched', async () => {
    const pins = [makePin(1, bob), makePin(2, bob), makePin(3, bob)];
    const { socket } = renderLive('/', null, {
      // Page one of the shuffle; and the newest pin when the visit began (order=newest, limit 1).
      'GET /api/pins/': (call) => ({ body: { pins: call.query.get('order') === 'newest' ? [pins[2]] : pins, nextCursor: null } }),
    });
    await screen.findByRole('link', { name: 'Pin 1' });
    const s = await socket();
    act(() => s.serverConnect());
    await waitFor(() => expect([...gridCardIds()].sort()).toEqual([1, 2, 3])); // every card placed, not just the first
    const order = gridCardIds();
    await waitFor(() => expect(s.watchedIds()).toEqual([1, 2, 3]));

    act(() => s.serverEmit('pin:created', { pin: makePin(9, alice, { created_at: '2026-01-01T00:00:00.000Z' }) }));
    expect(await screen.findByRole('button', { name: '1 new pin' })).toBeTruthy();
    expect(gridCardIds()).toEqual(order); // nothing moved under the reader
    act(() => s.serverEmit('pin:created', { pin: makePin(10, alice, { created_at: '2026-01-02T00:00:00.000Z' }) }));
    fireEvent.click(await screen.findByRole('button', { name: '2 new pins' }));
    await waitFor(() => expect(gridCardIds()).toEqual([10, 9, ...order]));
    expect(screen.queryByRole('button', { name: /new pin/ })).toBeNull();

    act(() => s.serverEmit('pin:deleted', { pinId: 2 }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 2' })).toBeNull());
    expect(gridCardIds()).toEqual([10, 9, ...order.filter((id) => id !== 2)]);
    await waitFor(() => expect(s.watchedIds()).toEqual([1, 3, 9, 10]));
  });

  it('pin page: likes and comments update in place; a deletion shows the notice with a way home', async () => {
    const { socket } = renderLive('/pins/5', null, {
      'GET /api/pins/5': { body: makePin(5, bob) },
      'GET /api/comments/pins/5/comments': { body: { comments: [] } },
    });
    await screen.findByRole('heading', { name: 'Pin 5' });
    const s = await socket();
    act(() => s.serverConnect());
    await waitFor(() => expect(s.watchedIds()).toEqual([5]));
    expect(screen.getByText('0 favorites')).toBeTruthy();
    act(() => s.serverEmit('pin:likes', { pinId: 5, likesCount: 1, version: 1 }));
    expect(await screen.findByText('1 favorite')).toBeTruthy();
    act(() => s.serverEmit('comment:created', { comment: makeComment(70, 5, alice, 'Live hello', '2026-01-02T00:00:00.000Z') }));
    const comments = screen.getByRole('region', { name: /Comments/ });
    expect(await within(comments).findByText('Live hello')).toBeTruthy();
    act(() => s.serverEmit('comment:deleted', { commentId: 70, pinId: 5 }));
    expect(await within(comments).findByText('No comments yet.')).toBeTruthy();

    act(() => s.serverEmit('pin:deleted', { pinId: 5 }));
    expect(await screen.findByText(PIN_DELETED_TEXT)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });

  it('boards and favorites follow along from the same user’s other tabs', async () => {
    const { socket } = renderLive('/boards', alice, { 'GET /api/boards/': { body: { boards: [] } } });
    expect(await screen.findByText('No boards found.')).toBeTruthy();
    const s = await socket();
    act(() => s.serverConnect());
    act(() => s.serverEmit('board:created', { board: makeBoard(3, [], alice, 'Made elsewhere'), seq: 1 }));
    expect(await screen.findByText('Made elsewhere')).toBeTruthy();
    act(() => s.serverEmit('board:pin-added', { boardId: 3, pin: { id: 1, title: 'Pin 1', image_url: '/seed-images/1.svg', image: null, visibility: 'public' }, pinCount: 1, seq: 2 }));
    expect(await screen.findByLabelText('1 pin')).toBeTruthy();
    act(() => s.serverEmit('board:deleted', { boardId: 3, seq: 3 }));
    expect(await screen.findByText('No boards found.')).toBeTruthy();
  });

  it('session:ended signs the tab out: a signed-in page goes to the login page', async () => {
    const { socket, router, sockets } = renderLive('/favorites', alice, {});
    expect(await screen.findByText('No favorited pin yet!')).toBeTruthy();
    const s = await socket();
    act(() => s.serverConnect());
    act(() => {
      s.serverEmit('session:ended', {});
      s.serverDisconnect('io server disconnect');
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByRole('link', { name: 'Favorites' })).toBeNull();
    await waitFor(() => expect(sockets).toHaveLength(2)); // the anonymous socket
  });

  it('without a live client (as in the other component tests) the screens work as before', async () => {
    const { store } = renderApp('/pins/5', {
      handlers: { 'GET /api/pins/5': { body: makePin(5, bob) }, 'GET /api/comments/pins/5/comments': { body: { comments: [] } } },
    });
    await screen.findByRole('heading', { name: 'Pin 5' });
    act(() => dropDeletedPin(store, 5));
    expect(await screen.findByText(PIN_DELETED_TEXT)).toBeTruthy();
  });

  it('a pin that never existed still says "Pin not found"', async () => {
    renderApp('/pins/404', { handlers: {} });
    expect(await screen.findByRole('heading', { name: 'Pin not found' })).toBeTruthy();
    expect(screen.queryByText(PIN_DELETED_TEXT)).toBeNull();
  });
});
