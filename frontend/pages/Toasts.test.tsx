import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, makeBoard, makePin, renderApp } from '../test-support/render.tsx';

const homePins = { 'GET /api/pins/': { body: { pins: [makePin(9)], nextCursor: null } } };

describe('toasts with Undo', () => {
  it('removing a pin from a board says so, says the pin itself stays, and Undo puts it back', async () => {
    const pins = [makePin(1), makePin(2)];
    let board = makeBoard(3, pins, alice, 'Ideas');
    const { ui, sent } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': () => ({ body: board }),
        'DELETE /api/boards/3/pins/1': () => {
          board = makeBoard(3, [pins[1]!], alice, 'Ideas');
          return { body: { message: 'Removed', board_id: 3, pin_id: 1 } };
        },
        'POST /api/boards/3/pins': () => {
          board = makeBoard(3, pins, alice, 'Ideas');
          return { status: 201, body: { id: 1, title: 'Pin 1', image_url: pins[0]!.image_url, image: null } };
        },
      },
    });
    await screen.findByRole('heading', { name: 'Ideas' });
    const remove = await screen.findByRole('button', { name: 'Delete Pin Pin 1 from this board' });
    expect(remove.getAttribute('title')).toMatch(/not deleted/);
    await ui.click(remove);
    expect(within(screen.getByRole('alertdialog')).getByText(/the pin itself is not deleted/)).toBeTruthy();
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    const toasts = screen.getByRole('status', { name: 'Notifications' });
    expect(await within(toasts).findByText('Removed from Ideas')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 1' })).toBeNull());
    await ui.click(within(toasts).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(sent('POST', '/api/boards/3/pins')[0]?.body).toEqual({ pin_id: 1 }));
    expect(await screen.findByRole('link', { name: 'Pin 1' })).toBeTruthy();
    expect(await within(toasts).findByText('Back in Ideas')).toBeTruthy();
  });

  it('removing a favorite offers Undo, which favorites the pin again; Dismiss closes the toast', async () => {
    const pin = makePin(5);
    const { ui, sent } = renderApp('/pins/5', {
      user: alice,
      handlers: {
        'GET /api/pins/5': { body: pin },
        'GET /api/comments/pins/5/comments': { body: { comments: [] } },
        'GET /api/favorites/': { body: { pins: [{ id: 40, pin_id: 5, title: pin.title, image_url: pin.image_url, image: null, likes_count: 1 }], nextCursor: null } },
        'DELETE /api/favorites/40': { body: { message: 'Removed', id: 40, pin_id: 5, likes_count: 0 } },
        'POST /api/favorites/': { status: 201, body: { id: 41, pin_id: 5, title: pin.title, image_url: pin.image_url, image: null, likes_count: 1 } },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Remove from Favorites' }));
    const toasts = screen.getByRole('status', { name: 'Notifications' });
    expect(await within(toasts).findByText('Removed from favorites')).toBeTruthy();
    await ui.click(within(toasts).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(sent('POST', '/api/favorites/')[0]?.body).toEqual({ pin_id: 5 }));
    expect(await screen.findByRole('button', { name: 'Remove from Favorites' })).toBeTruthy();
    await ui.click(within(toasts).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(within(toasts).queryByText('Undone')).toBeNull());
  });

  it('Save on a grid card opens the board picker, saves without leaving the grid, and Undo takes the pin off', async () => {
    const board = makeBoard(3, [], alice, 'Ideas');
    const { ui, sent, router } = renderApp('/', {
      user: alice,
      handlers: {
        ...homePins,
        'GET /api/boards/': { body: { boards: [board], nextCursor: null } },
        'GET /api/boards/3': { body: { ...board, nextCursor: null } },
        'POST /api/boards/3/pins': { status: 201, body: { id: 9, title: 'Pin 9', image_url: '/seed-images/9.svg', image: null } },
        'DELETE /api/boards/3/pins/9': { body: { message: 'Removed', board_id: 3, pin_id: 9 } },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Save Pin 9 to a board' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save to board' });
    expect(within(dialog).getByRole('button', { name: 'Share' })).toBeTruthy();
    await ui.click(await within(dialog).findByRole('button', { name: 'Ideas' }));
    const toasts = screen.getByRole('status', { name: 'Notifications' });
    expect(await within(toasts).findByText('Saved to Ideas')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/');
    expect(sent('POST', '/api/boards/3/pins')[0]?.body).toEqual({ pin_id: 9 });
    await ui.click(within(toasts).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(sent('DELETE', '/api/boards/3/pins/9')).toHaveLength(1));
  });

  it('a signed-out visitor pressing Save logs in and comes back to the same entry, where the save sheet opens again', async () => {
    const { ui, router } = renderApp('/', {
      handlers: {
        ...homePins,
        'POST /api/auth/demo': { body: bob },
        'GET /api/boards/': { body: { boards: [makeBoard(3, [], bob, 'Ideas')], nextCursor: null } },
      },
    });
    const entry = router.state.location.key;
    await ui.click(await screen.findByRole('button', { name: 'Save Pin 9 to a board' }));
    const sheet = await screen.findByRole('dialog', { name: 'Save this pin' });
    expect(within(sheet).getByText('Log in to save pins to your boards.')).toBeTruthy();
    await ui.click(within(sheet).getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ from: '/', back: 1 });
    await ui.click(await screen.findByRole('button', { name: 'Log in as Demo User' }));
    // Back one entry: the same visit of the home page (not a new one with a new order)...
    await waitFor(() => expect(router.state.location.key).toBe(entry));
    // ...with the save sheet open again for the same pin, now with the boards.
    const signedIn = await screen.findByRole('dialog', { name: 'Save to board' });
    expect(await within(signedIn).findByRole('button', { name: /Ideas/ })).toBeTruthy();
  });
});
