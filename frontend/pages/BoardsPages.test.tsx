import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { alice, makeBoard, makePin, renderApp } from '../test-support/render.tsx';

describe('Create board page', () => {
  it('refuses a blank name with "Board name cannot be empty." and sends nothing', async () => {
    const { ui, sent } = renderApp('/boards/create', { user: alice });
    await ui.type(await screen.findByLabelText('Board Name'), '   ');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Board name cannot be empty.')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('creates the board; Cancel returns to /boards', async () => {
    const board = makeBoard(4, [], alice, 'Trips');
    const { ui, sent, router } = renderApp('/boards/create', {
      user: alice,
      handlers: { 'POST /api/boards/': { status: 201, body: board }, 'GET /api/boards/': { body: { boards: [board] } } },
    });
    await ui.type(await screen.findByLabelText('Board Name'), ' Trips ');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect(sent('POST', '/api/boards/')[0]?.body).toEqual({ name: 'Trips' });
    expect(await screen.findByText('Trips')).toBeTruthy();
  });
});

describe('Boards page', () => {
  it('shows the cover or "No Image", the name and a two-digit pin count', async () => {
    const boards = [makeBoard(1, [makePin(5)], alice, 'Cats'), makeBoard(2, [], alice, 'Empty one')];
    renderApp('/boards', { user: alice, handlers: { 'GET /api/boards/': { body: { boards } } } });
    const list = await screen.findByRole('list', { name: 'Your boards' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards[0]?.textContent).toContain('Cats');
    expect(cards[0]?.textContent).toContain('01');
    expect(cards[0]?.querySelector('img')?.getAttribute('src')).toBe('/seed-images/5.svg');
    expect(cards[1]?.textContent).toContain('No Image');
    expect(cards[1]?.textContent).toContain('00');
  });

  it('shows "No boards found." when there are none', async () => {
    renderApp('/boards', { user: alice, handlers: { 'GET /api/boards/': { body: { boards: [] } } } });
    expect(await screen.findByText('No boards found.')).toBeTruthy();
  });
});

describe('Board detail page', () => {
  const pins = [makePin(1), makePin(2)];

  it('shows the loading text, then the board; renaming: Escape cancels, unchanged or blank saves nothing, OK saves', async () => {
    const board = makeBoard(3, pins, alice, 'Ideas');
    const { ui, sent } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': async () => {
          await new Promise((r) => setTimeout(r, 30));
          return { body: board };
        },
        'PATCH /api/boards/3': { body: { ...board, name: 'Better ideas' } },
      },
    });
    expect(await screen.findByText('Loading board details...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Ideas' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Boards' }).getAttribute('href')).toBe('/boards');

    await ui.click(screen.getByRole('button', { name: 'Rename Board' }));
    const input = screen.getByLabelText('Board name');
    await ui.clear(input);
    await ui.type(input, 'Something else{Escape}');
    expect(screen.getByRole('heading', { name: 'Ideas' })).toBeTruthy();

    await ui.click(screen.getByRole('button', { name: 'Rename Board' }));
    await ui.click(screen.getByRole('button', { name: 'OK' })); // unchanged
    await ui.click(screen.getByRole('button', { name: 'Rename Board' }));
    await ui.clear(screen.getByLabelText('Board name'));
    await ui.type(screen.getByLabelText('Board name'), '   ');
    await ui.click(screen.getByRole('button', { name: 'OK' })); // blank
    expect(sent('PATCH')).toHaveLength(0);

    await ui.click(screen.getByRole('button', { name: 'Rename Board' }));
    await ui.clear(screen.getByLabelText('Board name'));
    await ui.type(screen.getByLabelText('Board name'), '  Better ideas ');
    await ui.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByRole('heading', { name: 'Better ideas' })).toBeTruthy();
    expect(sent('PATCH', '/api/boards/3')[0]?.body).toEqual({ name: 'Better ideas' });
  });

  it('removes a pin through the Delete Pin modal; No closes without a call', async () => {
    let board = makeBoard(3, pins, alice, 'Ideas');
    const { ui, sent } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': () => ({ body: board }),
        'DELETE /api/boards/3/pins/1': () => {
          board = makeBoard(3, [pins[1]!], alice, 'Ideas');
          return { body: { message: 'Removed', board_id: 3, pin_id: 1 } };
        },
      },
    });
    await screen.findByRole('heading', { name: 'Ideas' });
    // The heading shows before the grid has measured and placed its cards: wait for them.
    await ui.click(await screen.findByRole('button', { name: 'Delete Pin Pin 1 from this board' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'No' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent('DELETE')).toHaveLength(0);
    await ui.click(screen.getByRole('button', { name: 'Delete Pin Pin 1 from this board' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 1' })).toBeNull());
    expect(await screen.findByRole('link', { name: 'Pin 2' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('deletes the board through its confirm modal and goes to /boards', async () => {
    const board = makeBoard(3, [], alice, 'Ideas');
    const { ui, router } = renderApp('/boards/3', {
      user: alice,
      handlers: {
        'GET /api/boards/3': { body: board },
        'DELETE /api/boards/3': { body: { message: 'Deleted', id: 3 } },
        'GET /api/boards/': { body: { boards: [] } },
      },
    });
    expect(await screen.findByText('No pins in this board yet.')).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Delete Board' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards'));
    expect(await screen.findByText('No boards found.')).toBeTruthy();
  });
});

describe('Manage pins page', () => {
  it('asks the browser confirm and removes only when accepted', async () => {
    const pins = [makePin(1), makePin(2)];
    let board = makeBoard(3, pins, alice, 'Ideas');
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const { ui, sent } = renderApp('/boards/3/manage-pins', {
      user: alice,
      handlers: {
        'GET /api/boards/3': () => ({ body: board }),
        'DELETE /api/boards/3/pins/2': () => {
          board = makeBoard(3, [pins[0]!], alice, 'Ideas');
          return { body: { message: 'Removed', board_id: 3, pin_id: 2 } };
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Manage Ideas Pins' })).toBeTruthy();
    // The heading shows before the grid has measured and placed its cards: wait for them.
    await ui.click(await screen.findByRole('button', { name: 'Delete Pin 2' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to remove this pin?');
    expect(sent('DELETE')).toHaveLength(0);
    confirm.mockReturnValue(true);
    await ui.click(screen.getByRole('button', { name: 'Delete Pin 2' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pin 2' })).toBeNull());
    expect(sent('DELETE', '/api/boards/3/pins/2')).toHaveLength(1);
  });

  it('shows "No pins found in this board." for an empty board', async () => {
    renderApp('/boards/3/manage-pins', { user: alice, handlers: { 'GET /api/boards/3': { body: makeBoard(3, [], alice, 'Ideas') } } });
    expect(await screen.findByText('No pins found in this board.')).toBeTruthy();
  });
});
