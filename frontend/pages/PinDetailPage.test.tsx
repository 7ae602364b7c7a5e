import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import type { Pin } from '../../contract/pins.ts';
import { storedImage } from '../test-support/files.ts';
import { alice, bob, errorBody, makeBoard, makeComment, makePin, renderApp } from '../test-support/render.tsx';

const pin = makePin(5, alice, { title: 'Lake', likes_count: 2 });
const base = {
  'GET /api/pins/5': { body: pin },
  'GET /api/comments/pins/5/comments': { body: { comments: [] } },
};

describe('Pin detail page', () => {
  it('shows title, owner line, favorites count and description; anonymous visitors get no actions', async () => {
    renderApp('/pins/5', { handlers: base });
    expect(await screen.findByRole('heading', { name: 'Lake' })).toBeTruthy();
    const owner = screen.getByRole('link', { name: 'alice' });
    expect(owner.closest('p')?.textContent).toBe('Pin owner: alice');
    expect(owner.getAttribute('href')).toBe('/users/alice');
    expect(screen.getByText('2 favorites')).toBeTruthy();
    expect(screen.getByText('About pin 5')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add To Favorites' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add To Board/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit This Pin' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Comment' })).toBeNull();
  });

  it('shows "Pin owner: Unknown" without an owner name', async () => {
    renderApp('/pins/5', { handlers: { ...base, 'GET /api/pins/5': { body: { ...pin, user: { id: 1, username: '' } } } } });
    expect(await screen.findByText('Pin owner: Unknown')).toBeTruthy();
  });

  it('renders titles and descriptions as text, never HTML', async () => {
    const evil = { ...pin, title: '<img src=x onerror=alert(1)>', description: '<b>bold</b>' };
    const { container } = renderApp('/pins/5', { handlers: { ...base, 'GET /api/pins/5': { body: evil } } });
    expect(await screen.findByRole('heading', { name: '<img src=x onerror=alert(1)>' })).toBeTruthy();
    expect(container.querySelector('b')).toBeNull();
  });

  it('favorites: "Favorited!" shows for 2 seconds, the count goes up, the button flips', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { ui, sent } = renderApp('/pins/5', {
      user: bob,
      handlers: {
        ...base,
        'POST /api/favorites/': { status: 201, body: { id: 40, pin_id: 5, title: 'Lake', image_url: pin.image_url, likes_count: 3 } },
        'DELETE /api/favorites/40': { body: { message: 'Removed', id: 40, pin_id: 5, likes_count: 2 } },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Add To Favorites' }));
    expect(await screen.findByText('Favorited!')).toBeTruthy();
    expect(screen.getByText('3 favorites')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove from Favorites' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1900));
    expect(screen.getByText('Favorited!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Favorited!')).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'Remove from Favorites' }));
    expect(await screen.findByText('2 favorites')).toBeTruthy();
    expect(sent('DELETE', '/api/favorites/40')).toHaveLength(1); // the favorite's id, not the pin's
  });

  it('treats "Already favorited" as no change, and logs other odd answers', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let reply: unknown = { message: 'Already favorited' };
    const { ui } = renderApp('/pins/5', { user: bob, handlers: { ...base, 'POST /api/favorites/': () => ({ body: reply }) } });
    await ui.click(await screen.findByRole('button', { name: 'Add To Favorites' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add To Favorites' })).toBeTruthy());
    expect(screen.queryByText('Favorited!')).toBeNull();
    expect(log).not.toHaveBeenCalled();
    reply = { nothing: true };
    await ui.click(screen.getByRole('button', { name: 'Add To Favorites' }));
    await waitFor(() => expect(log).toHaveBeenCalledWith('Failed to favorite pin'));
  });

  it('owner sees Edit This Pin and Delete This Pin; deleting confirms and goes to /pins', async () => {
    const { ui, router, sent } = renderApp('/pins/5', {
      user: alice,
      handlers: { ...base, 'DELETE /api/pins/5': { body: { message: 'Deleted', id: 5 } }, 'GET /api/pins/': { body: { pins: [] } } },
    });
    expect((await screen.findByRole('link', { name: 'Edit This Pin' })).getAttribute('href')).toBe('/pins/5/edit');
    await ui.click(screen.getByRole('button', { name: 'Delete This Pin' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    // Sent when its Undo toast goes (frontend/pages/DeferredDeletes.test.tsx has the rest).
    const toasts = screen.getByRole('status', { name: 'Notifications' });
    expect(await within(toasts).findByText('Pin deleted')).toBeTruthy();
    expect(sent('DELETE', '/api/pins/5')).toHaveLength(0);
    await ui.click(within(toasts).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(sent('DELETE', '/api/pins/5')).toHaveLength(1));
  });

  it('another user sees no Edit This Pin / Delete This Pin', async () => {
    renderApp('/pins/5', { user: bob, handlers: base });
    await screen.findByRole('button', { name: 'Add To Favorites' });
    expect(screen.queryByRole('link', { name: 'Edit This Pin' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete This Pin' })).toBeNull();
  });

  it('Add To Board lists the boards and adds the pin, then goes to the board', async () => {
    const board = makeBoard(8, [], bob, 'Mine');
    const { ui, router, sent } = renderApp('/pins/5', {
      user: bob,
      handlers: {
        ...base,
        'GET /api/boards/': { body: { boards: [board] } },
        'POST /api/boards/8/pins': { status: 201, body: { id: 5, title: 'Lake', image_url: pin.image_url } },
        'GET /api/boards/8': { body: { ...board, pins: [{ id: 5, title: 'Lake', image_url: pin.image_url }] } },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Add To Board' }));
    await ui.click(await screen.findByRole('button', { name: 'Mine' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards/8'));
    expect(sent('POST', '/api/boards/8/pins')[0]?.body).toEqual({ pin_id: 5 });
    expect(await screen.findByRole('link', { name: 'Lake' })).toBeTruthy();
  });

  it('Add To Board with many boards: the recently used first, a filter that narrows them, Down into the list, Up back to the filter', async () => {
    const names = ['Kitchen', 'Garden ideas', 'Attic', 'Garden tools', 'Boats', 'Lakes', 'Bridges'];
    const boards = names.map((name, i) => makeBoard(20 + i, [], bob, name));
    localStorage.setItem(`pinboard:recent-boards:${bob.id}`, JSON.stringify([25, 22]));
    const { ui } = renderApp('/pins/5', { user: bob, handlers: { ...base, 'GET /api/boards/': { body: { boards } } } });
    await ui.click(await screen.findByRole('button', { name: 'Add To Board' }));
    const list = await screen.findByRole('list', { name: 'Your boards' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Lakes', 'Attic', 'Kitchen', 'Garden ideas', 'Garden tools', 'Boats', 'Bridges']);
    const filter = screen.getByRole('searchbox', { name: 'Filter boards' });
    expect(document.activeElement).toBe(filter);
    await ui.type(filter, 'garden');
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Garden ideas', 'Garden tools']);
    await ui.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Garden ideas');
    await ui.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(filter);
    await ui.clear(filter);
    await ui.type(filter, 'zebra');
    expect(screen.getByText('No boards match “zebra”.')).toBeTruthy();
    localStorage.clear();
  });

  it('"+ Create New Board" ignores a blank name, else creates, adds and goes to the new board', async () => {
    const created = makeBoard(9, [], bob, 'Fresh');
    const { ui, router, sent } = renderApp('/pins/5', {
      user: bob,
      handlers: {
        ...base,
        'GET /api/boards/': { body: { boards: [] } },
        'POST /api/boards/': { status: 201, body: created },
        'POST /api/boards/9/pins': { status: 201, body: { id: 5, title: 'Lake', image_url: pin.image_url } },
        'GET /api/boards/9': { body: { ...created, pins: [{ id: 5, title: 'Lake', image_url: pin.image_url }] } },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Add To Board' }));
    await ui.click(screen.getByRole('button', { name: '+ Create New Board' }));
    await ui.type(screen.getByLabelText('New board name'), '   ');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(sent('POST', '/api/boards/')).toHaveLength(0);
    await ui.clear(screen.getByLabelText('New board name'));
    await ui.type(screen.getByLabelText('New board name'), 'Fresh');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/boards/9'));
    expect(sent('POST', '/api/boards/')[0]?.body).toEqual({ name: 'Fresh' });
    expect(sent('POST', '/api/boards/9/pins')[0]?.body).toEqual({ pin_id: 5 });
  });

  it('share falls back to the clipboard with the SPEC alerts', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const writeText = vi.fn(async () => undefined);
    const { ui } = renderApp('/pins/5', { handlers: base });
    // After userEvent.setup(), which installs its own clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await ui.click(await screen.findByRole('button', { name: 'Share' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Pin link copied to clipboard!'));
    expect(writeText).toHaveBeenCalledWith('http://localhost:3000/pins/5');
    writeText.mockRejectedValueOnce(new Error('denied'));
    await ui.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to copy link.'));
  });

  it('share uses the device share feature when present', async () => {
    const share = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const { ui } = renderApp('/pins/5', { handlers: base });
    await ui.click(await screen.findByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ title: 'Lake', url: 'http://localhost:3000/pins/5' });
    expect(alert).not.toHaveBeenCalled();
    Reflect.deleteProperty(navigator, 'share');
  });

  it('shows a not-found page for an unknown pin', async () => {
    renderApp('/pins/999', { handlers: base });
    expect(await screen.findByRole('heading', { name: 'Pin not found' })).toBeTruthy();
  });
});

describe('Comments', () => {
  // The server lists comments newest first (docs/paging.md), page by page.
  const comments = [makeComment(2, 5, bob, 'Newer one', '2025-11-03T10:00:00.000Z'), makeComment(1, 5, alice, 'Older one', '2024-03-10T10:00:00.000Z')];
  const withComments = { ...base, 'GET /api/comments/pins/5/comments': { body: { comments } } };

  it('lists newest first with month and year; only the author sees Edit and Delete', async () => {
    renderApp('/pins/5', { user: bob, handlers: withComments });
    const section = await screen.findByRole('region', { name: /Comments/ });
    await within(section).findByText('Newer one');
    const items = within(section).getAllByRole('listitem');
    const texts = items.map((li) => li.textContent ?? '');
    expect(texts[0]).toContain('Newer one');
    expect(texts[0]).toContain('November 2025');
    expect(texts[1]).toContain('March 2024');
    expect(within(items[0]!).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(items[1]!).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(items[1]!).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('"Text is required" for a blank comment; nothing is sent', async () => {
    const { ui, sent } = renderApp('/pins/5', { user: bob, handlers: base });
    await ui.click(await screen.findByRole('button', { name: 'Add Comment' }));
    await ui.type(screen.getByLabelText('Comment'), '   ');
    await ui.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Text is required')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('maps the duplicate answer to "You already submitted a comment on this pin."', async () => {
    const { ui } = renderApp('/pins/5', {
      user: bob,
      handlers: { ...base, 'POST /api/comments/pins/5/comments': { status: 409, body: errorBody('Conflict', [MSG.commentDuplicate]) } },
    });
    await ui.click(await screen.findByRole('button', { name: 'Add Comment' }));
    await ui.type(screen.getByLabelText('Comment'), 'Again');
    await ui.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('You already submitted a comment on this pin.')).toBeTruthy();
  });

  it('any other failure shows "Something went wrong."; a lost session shows the logged-out text', async () => {
    let reply = { status: 500, body: errorBody('Internal') };
    const { ui } = renderApp('/pins/5', { user: bob, handlers: { ...base, 'POST /api/comments/pins/5/comments': () => reply } });
    await ui.click(await screen.findByRole('button', { name: 'Add Comment' }));
    await ui.type(screen.getByLabelText('Comment'), 'Hi');
    await ui.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Something went wrong.')).toBeTruthy();
    reply = { status: 401, body: errorBody(MSG.notSignedIn) };
    await ui.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('You must be logged in to submit a comment.')).toBeTruthy();
  });

  it('adds a comment (modal closes), edits it, deletes it; the modal closes on an outside press', async () => {
    let list = [] as ReturnType<typeof makeComment>[];
    const mine = makeComment(10, 5, bob, 'Lovely', '2025-11-03T10:00:00.000Z');
    const { ui, sent } = renderApp('/pins/5', {
      user: bob,
      handlers: {
        ...base,
        'GET /api/comments/pins/5/comments': () => ({ body: { comments: list } }),
        'POST /api/comments/pins/5/comments': () => {
          list = [mine];
          return { status: 201, body: mine };
        },
        'PUT /api/comments/10': () => {
          list = [{ ...mine, text: 'Lovely lake' }];
          return { body: list[0] };
        },
        'DELETE /api/comments/10': () => {
          list = [];
          return { body: { message: 'Deleted', id: 10, pin_id: 5 } };
        },
      },
    });
    expect(await screen.findByText('No comments yet.')).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Add Comment' }));
    await ui.type(screen.getByLabelText('Comment'), 'Lovely');
    await ui.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Lovely')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await ui.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog');
    await ui.pointer({ keys: '[MouseLeft]', target: dialog.parentElement! }); // outside the panel
    expect(screen.queryByRole('dialog')).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByLabelText('Comment');
    await ui.clear(field);
    await ui.type(field, 'Lovely lake');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lovely lake')).toBeTruthy();
    expect(sent('PUT', '/api/comments/10')[0]?.body).toEqual({ text: 'Lovely lake' });

    await ui.click(screen.getByRole('button', { name: 'Delete' }));
    await ui.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('No comments yet.')).toBeTruthy();
  });

  it("loading: draws the pin skeleton (the static shell's for a pin link), no loading line", async () => {
    const { container } = renderApp('/pins/5', { handlers: { ...base, 'GET /api/pins/5': () => new Promise(() => undefined) } });
    await waitFor(() => expect(container.querySelector('[data-testid="pin-skeleton"]')).not.toBeNull());
    expect(screen.getAllByRole('status').some((status) => status.textContent === 'Loading pin...')).toBe(true);
  });

  it("a failed load says so in words, with the server's reason, and Try again loads the pin", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    const { ui } = renderApp('/pins/5', {
      handlers: { ...base, 'GET /api/pins/5': () => (fail ? { status: 503, body: errorBody('The service is busy.') } : { body: pin }) },
    });
    const alert = (await screen.findByText("Couldn't load this pin.")).closest('.load-failed') as HTMLElement;
    expect(within(alert).getByText('The service is busy.')).toBeTruthy();
    fail = false;
    await ui.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Lake' })).toBeTruthy();
    logged.mockRestore();
  });

  it('offline: the words say so, and that it loads when the connection is back (no button)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp('/pins/5', { handlers: { ...base, 'GET /api/pins/5': { status: 500, body: {} } } });
    const failed = (await screen.findByText("You're offline — this will load when you're back.")).closest('.load-failed') as HTMLElement;
    expect(within(failed).queryByRole('button')).toBeNull();
    online.mockRestore();
    logged.mockRestore();
  });

  it('a failure with no reason of its own says it could not be loaded', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/pins/5', { handlers: { ...base, 'GET /api/pins/5': { status: 500, body: {} } } });
    const failed = (await screen.findByText("Couldn't load this pin.")).closest('.load-failed') as HTMLElement;
    expect(failed.textContent).toBe("Couldn't load this pin.This could not be loaded.Try again");
    logged.mockRestore();
  });
});

describe('what the picture says (docs/product.md "Alt text")', () => {
  const withImage = (extra: Partial<Pin>, text: string | null) => makePin(5, alice, { title: 'Lake', image: { ...storedImage('ab12'), text }, ...extra });
  const page = (body: Pin) => renderApp('/pins/5', { handlers: { ...base, 'GET /api/pins/5': { body } } });

  it('the picture\'s alt is the owner\'s alt text; the recognised text is under a closed "Text in this image"', async () => {
    const { ui } = page(withImage({ alt_text: 'A frozen lake under pines' }, 'THIN ICE\nKeep off'));
    expect(await screen.findByRole('img', { name: 'A frozen lake under pines' })).toBeTruthy();
    const summary = screen.getByText('Text in this image');
    const details = summary.closest('details');
    expect(details?.open).toBe(false);
    await ui.click(summary);
    expect(details?.open).toBe(true);
    expect(within(details!).getByText(/THIN ICE/).textContent).toBe('THIN ICE\nKeep off');
  });

  it('without alt text the alt is the recognised text; without either, the title; no text, no disclosure', async () => {
    page(withImage({}, 'THIN ICE\nKeep off'));
    expect(await screen.findByRole('img', { name: 'THIN ICE Keep off' })).toBeTruthy();
    cleanup();
    page(withImage({}, null));
    expect(await screen.findByRole('img', { name: 'Lake' })).toBeTruthy();
    expect(screen.queryByText('Text in this image')).toBeNull();
  });
});
