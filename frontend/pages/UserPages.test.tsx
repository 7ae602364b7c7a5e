import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../components/RelativeTime.tsx';
import { alice, bob, makeBoard, makeComment, makePin, renderApp } from '../test-support/render.tsx';

describe('user pages and name links', () => {
  it("the pin owner's name links to their page, which lists their pins (GET /api/pins/?userId=)", async () => {
    const pins = [makePin(3, bob), makePin(2, bob)];
    const { ui, sent, router } = renderApp('/pins/3', {
      handlers: {
        'GET /api/pins/3': { body: pins[0] },
        'GET /api/comments/pins/3/comments': { body: { comments: [] } },
        'GET /api/users/lookup': { body: { id: bob.id, username: bob.username, pin_count: 2 } },
        'GET /api/pins/': (call) => (call.query.get('cursor') ? { body: { pins: [pins[1]], nextCursor: null } } : { body: { pins: [pins[0]], nextCursor: 'next' } }),
      },
    });
    const owner = await screen.findByRole('link', { name: 'bob' });
    expect(owner.closest('p')?.textContent).toBe('Pin owner: bob');
    await ui.click(owner);
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/bob'));
    expect(await screen.findByRole('heading', { name: 'bob' })).toBeTruthy();
    expect(await screen.findByText('2 pins')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Pin 3' })).toBeTruthy();
    expect(sent('GET', '/api/pins/').map((call) => call.query.get('userId'))).toContain(String(bob.id));
  });

  it("a profile: the pin count, the boards the reader shares with them, the pins; one's own name shows /pins, the same story", async () => {
    const shared = makeBoard(4, [makePin(3, bob)], bob, 'Trip together');
    const { ui, router } = renderApp('/users/bob', {
      user: alice,
      handlers: {
        'GET /api/users/lookup': (call) => ({ body: call.query.get('username') === 'bob' ? { id: bob.id, username: 'bob', pin_count: 1234 } : { id: alice.id, username: 'alice', pin_count: 1 } }),
        [`GET /api/users/${bob.id}/boards`]: { body: { boards: [{ ...shared, role: 'collaborator' }], nextCursor: null } },
        'GET /api/boards/': { body: { boards: [makeBoard(5, [], alice, 'Mine')], nextCursor: null } },
        'GET /api/pins/': (call) => ({ body: { pins: call.query.get('userId') === String(bob.id) ? [makePin(3, bob)] : [makePin(9, alice)], nextCursor: null } }),
      },
    });
    expect(await screen.findByRole('heading', { name: 'bob', level: 1 })).toBeTruthy();
    expect(screen.getByText('1,234 pins')).toBeTruthy();
    const row = await screen.findByRole('region', { name: 'Boards you share with bob' });
    expect(
      within(row)
        .getByRole('link', { name: /Trip together/ })
        .getAttribute('href'),
    ).toBe('/boards/4');
    expect(await screen.findByRole('link', { name: 'Pin 3' })).toBeTruthy();

    // The profile menu leads to one's own profile: /pins, "Your Awesome Pins!" with the count and one's boards.
    await ui.click(screen.getByRole('button', { name: 'Profile menu' }));
    await ui.click(screen.getByRole('link', { name: 'Your profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(await screen.findByRole('heading', { name: 'Your Awesome Pins!', level: 1 })).toBeTruthy();
    expect(await screen.findByText('alice · 1 pin')).toBeTruthy();
    expect(within(await screen.findByRole('region', { name: 'Your boards' })).getByRole('link', { name: /Mine/ })).toBeTruthy();
    // A link to one's own name shows the same page.
    await act(() => router.navigate('/users/alice'));
    expect(await screen.findByRole('heading', { name: 'Your Awesome Pins!', level: 1 })).toBeTruthy();
  });

  it('an unknown user says "User not found"', async () => {
    renderApp('/users/nobody', { handlers: { 'GET /api/users/lookup': { status: 404, body: { message: 'User not found.' } } } });
    expect(await screen.findByRole('heading', { name: 'User not found' })).toBeTruthy();
  });

  it('comments: author links, month and year with how long ago, the exact time on hover, and "Edit Your Comment" once you have one', async () => {
    const now = new Date(Date.now() - 2 * 3600_000).toISOString();
    const mine = makeComment(7, 5, alice, 'Mine', now);
    renderApp('/pins/5', {
      user: alice,
      handlers: {
        'GET /api/pins/5': { body: makePin(5, bob) },
        'GET /api/comments/pins/5/comments': { body: { comments: [mine, makeComment(6, 5, bob, 'Theirs', now)] } },
      },
    });
    const section = await screen.findByRole('region', { name: /Comments/ });
    expect(await within(section).findByRole('button', { name: 'Edit Your Comment' })).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Add Comment' })).toBeNull();
    expect(within(section).getAllByRole('link', { name: 'bob' })[0]?.getAttribute('href')).toBe('/users/bob');
    const time = section.querySelector('time');
    expect(time?.textContent).toMatch(/ · 2 hours ago$/);
    expect(time?.getAttribute('title')).toBeTruthy();
  });

  it('a signed-out visitor is offered "Log in to comment"', async () => {
    renderApp('/pins/5', {
      handlers: { 'GET /api/pins/5': { body: makePin(5, bob) }, 'GET /api/comments/pins/5/comments': { body: { comments: [] } } },
    });
    const login = await screen.findByRole('link', { name: 'Log in to comment' });
    expect(login.getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Add Comment' })).toBeNull();
  });

  it('relative times', () => {
    const at = Date.parse('2026-11-23T12:00:00Z');
    expect(relativeTime('2026-11-23T11:59:30Z', at)).toBe('just now');
    expect(relativeTime('2026-11-23T11:55:00Z', at)).toBe('5 minutes ago');
    expect(relativeTime('2026-11-23T11:00:00Z', at)).toBe('1 hour ago');
    expect(relativeTime('2026-11-20T12:00:00Z', at)).toBe('3 days ago');
    expect(relativeTime('2026-09-01T12:00:00Z', at)).toBeNull();
  });
});
