import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import { alice, bob, errorBody, makeBoard, makePin, pagedReply, renderApp } from '../test-support/render.tsx';

describe('New pin page', () => {
  it('lists both errors together and sends nothing when title and image URL are blank', async () => {
    const { ui, sent } = renderApp('/pins/new', { user: alice });
    await screen.findByRole('heading', { name: 'Create a New Pin' });
    await ui.type(screen.getByLabelText('Title'), '   ');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    const list = screen.getByRole('alert');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Title is required.', 'Image URL is required.']);
    expect(sent('POST')).toHaveLength(0);
  });

  it('refuses an image URL that is not http(s) or a path', async () => {
    const { ui, sent } = renderApp('/pins/new', { user: alice });
    await ui.type(await screen.findByLabelText('Title'), 'A title');
    await ui.type(screen.getByLabelText('Image URL'), 'javascript:alert(1)');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    expect(screen.getByText(MSG.imageUrlInvalid)).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('creates the pin and goes to /pins, where it is listed', async () => {
    const created = makePin(7, alice, { title: 'Sunset', image_url: 'https://example.com/s.jpg', description: '' });
    const { ui, sent, router } = renderApp('/pins/new', {
      user: alice,
      handlers: { 'POST /api/pins/': { status: 201, body: created }, 'GET /api/pins/': { body: { pins: [created] } } },
    });
    await ui.type(await screen.findByLabelText('Title'), ' Sunset ');
    await ui.type(screen.getByLabelText('Image URL'), 'https://example.com/s.jpg');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'Sunset', imageUrl: 'https://example.com/s.jpg', description: '' });
    expect(await screen.findByRole('heading', { name: 'Your Awesome Pins!' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Sunset' })).toBeTruthy();
  });

  it('logs a failed create to the console and stays on the form', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ui, router } = renderApp('/pins/new', { user: alice, handlers: { 'POST /api/pins/': { status: 500, body: errorBody('Internal') } } });
    await ui.type(await screen.findByLabelText('Title'), 'T');
    await ui.type(screen.getByLabelText('Image URL'), '/seed-images/a.svg');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(router.state.location.pathname).toBe('/pins/new');
  });

  it("lists the server's messages when it refuses the pin", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const tooLong = 'Title must be at most 200 characters.';
    const { ui, router } = renderApp('/pins/new', {
      user: alice,
      handlers: { 'POST /api/pins/': { status: 400, body: errorBody(tooLong, [tooLong, MSG.imageUrlInvalid], { title: tooLong, imageUrl: MSG.imageUrlInvalid }) } },
    });
    await ui.type(await screen.findByLabelText('Title'), 'T');
    await ui.type(screen.getByLabelText('Image URL'), '/seed-images/a.svg');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    const list = await screen.findByRole('list', { name: 'Problems with this pin' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([tooLong, MSG.imageUrlInvalid]);
    expect(router.state.location.pathname).toBe('/pins/new');
  });

  it('puts the pin on a board chosen from the boards the user may add to, and shows who will see it', async () => {
    const kitchen = makeBoard(11, [], alice, 'Kitchen'); // private, as boards are by default
    const trips = { ...makeBoard(12, [], alice, 'Trips'), visibility: 'public' as const };
    const shared = { ...makeBoard(13, [], bob, 'Shared finds'), role: 'collaborator' as const, member_count: 2 };
    // More than a page of boards: the select holds them all.
    const more = Array.from({ length: 52 }, (_, i) => makeBoard(100 + i, [], alice, `Old board ${i}`));
    const created = makePin(7, alice, { title: 'Soup', image_url: 'https://example.com/soup.jpg', visibility: 'private' });
    const { ui, sent, router } = renderApp('/pins/new', {
      user: alice,
      handlers: {
        'GET /api/boards/': pagedReply('boards', [kitchen, trips, shared, ...more]),
        'POST /api/pins/': { status: 201, body: created },
        'GET /api/pins/': { body: { pins: [created] } },
      },
    });
    const select = await screen.findByLabelText<HTMLSelectElement>('Board');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(1 + 3 + 52));
    expect(
      within(select)
        .getAllByRole('option')
        .slice(0, 4)
        .map((option) => option.textContent),
    ).toEqual(['No board', 'Kitchen', 'Trips', 'Shared finds (shared)']);
    const visibility = () => document.getElementById(select.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(visibility()).toBe('Public: Anyone can see this pin');
    await ui.selectOptions(select, 'Kitchen');
    expect(visibility()).toBe("Private: Only you and the boards' members can see this pin");
    await ui.selectOptions(select, 'Trips');
    expect(visibility()).toBe('Public: Anyone can see this pin');
    await ui.selectOptions(select, 'Shared finds (shared)');
    expect(visibility()).toBe("Private: Only you and the boards' members can see this pin");
    await ui.selectOptions(select, 'Kitchen');

    await ui.type(screen.getByLabelText('Title'), 'Soup');
    await ui.type(screen.getByLabelText('Image URL'), 'https://example.com/soup.jpg');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'Soup', imageUrl: 'https://example.com/soup.jpg', description: '', boardId: 11 });
    expect(await screen.findByText('Saved to Kitchen')).toBeTruthy();
  });

  it('sends no board when "No board" is left chosen', async () => {
    const created = makePin(8, alice, { title: 'Loose', image_url: '/seed-images/a.svg' });
    const { ui, sent, router } = renderApp('/pins/new', {
      user: alice,
      handlers: { 'GET /api/boards/': pagedReply('boards', [makeBoard(11, [], alice, 'Kitchen')]), 'POST /api/pins/': { status: 201, body: created }, 'GET /api/pins/': { body: { pins: [created] } } },
    });
    const select = await screen.findByLabelText<HTMLSelectElement>('Board');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await ui.selectOptions(select, 'Kitchen');
    await ui.selectOptions(select, 'No board');
    await ui.type(screen.getByLabelText('Title'), 'Loose');
    await ui.type(screen.getByLabelText('Image URL'), '/seed-images/a.svg');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')[0]?.body).not.toHaveProperty('boardId');
  });
});

describe('Edit pin page', () => {
  it('shows the loading text, requires a title, and saves then goes to /pins', async () => {
    const pin = makePin(3, alice);
    const { ui, sent, router } = renderApp('/pins/3/edit', {
      user: alice,
      handlers: {
        'GET /api/pins/3': async () => {
          await new Promise((r) => setTimeout(r, 30));
          return { body: pin };
        },
        'PUT /api/pins/3': { body: { ...pin, title: 'Renamed' } },
        'GET /api/pins/': { body: { pins: [{ ...pin, title: 'Renamed' }] } },
      },
    });
    expect(await screen.findByText('Loading pin data...')).toBeTruthy();
    const title = await screen.findByLabelText('Title');
    await ui.clear(title);
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(screen.getByText('Title is required.')).toBeTruthy();
    expect(sent('PUT')).toHaveLength(0);
    await ui.type(title, 'Renamed');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('PUT', '/api/pins/3')[0]?.body).toEqual({ title: 'Renamed', description: pin.description });
  });

  it("shows a refused edit's message under the field it is about, and stays on the form", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const pin = makePin(3, alice);
    const tooLong = 'Description must be at most 2000 characters.';
    const { ui, router } = renderApp('/pins/3/edit', {
      user: alice,
      handlers: { 'GET /api/pins/3': { body: pin }, 'PUT /api/pins/3': { status: 400, body: errorBody(tooLong, [tooLong], { description: tooLong }) } },
    });
    await ui.type(await screen.findByLabelText('Description'), ' more');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    const description = screen.getByLabelText('Description');
    await waitFor(() => expect(description.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(description.getAttribute('aria-describedby') ?? '')?.textContent).toBe(tooLong);
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBeNull();
    expect(router.state.location.pathname).toBe('/pins/3/edit');
  });
});
